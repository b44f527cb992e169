/**
 * The small bot the package tests install zhin-gen into, written as a user following the docs
 * would: an ESM package, tools importing `@zhin-gen/runtime` (one with a Zod schema, one with a
 * plain JSON Schema), a skill with a private tool, a host module serving one turn, a server entry,
 * and a Vite config that builds that entry for Node (`build.ssr`).
 */

/** Options every user-side type-check uses (issue 14): the strictest a user is likely to set. */
export const STRICT_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  erasableSyntaxOnly: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  verbatimModuleSyntax: true,
  target: 'ES2022',
  lib: ['ES2022'],
  types: ['node'],
} as const;

export const RESOLUTIONS = {
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  bundler: { module: 'Preserve', moduleResolution: 'Bundler' },
} as const;

export type Resolution = keyof typeof RESOLUTIONS;

const include = ['src', 'tools', 'skills', 'zhin-capabilities.gen.ts', 'vite.config.ts'];

export function tsconfigFor(resolution: Resolution): string {
  return `${JSON.stringify({ compilerOptions: { ...STRICT_OPTIONS, ...RESOLUTIONS[resolution] }, include }, null, 2)}\n`;
}

export const BOT_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'package-test-bot', version: '1.0.0', private: true, type: 'module', scripts: { build: 'vite build', start: 'node dist/main.js' } }, null, 2)}\n`,
  'tools/echo/index.ts': `import { defineAgentTool } from '@zhin-gen/runtime';
import { z } from 'zod';

export default defineAgentTool({
  description: 'Echo a message back',
  requiresApproval: 'never',
  inputSchema: z.object({ message: z.string().min(1) }),
  async execute({ message }) {
    return \`echo: \${message}\`;
  },
});
`,
  'tools/add/index.ts': `import { defineAgentTool } from '@zhin-gen/runtime';

export default defineAgentTool<{ readonly a: number; readonly b: number }>({
  description: 'Add two numbers',
  requiresApproval: 'never',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute({ a, b }) {
    return a + b;
  },
});
`,
  'skills/greet/SKILL.md': `---
name: greet
description: Greet people by name.
tools:
  - echo
keywords: [hello]
---
# Greeting

Call \`greet__hello\` with the person's name and reply with its result.
`,
  'skills/greet/tools/hello/index.ts': `import { defineAgentTool } from '@zhin-gen/runtime';
import { z } from 'zod';

export default defineAgentTool({
  description: 'Say hello to someone',
  inputSchema: z.object({ name: z.string() }),
  execute({ name }) {
    return \`hello, \${name}\`;
  },
});
`,
  'src/host.ts': `import { createCapabilityHost, type ToolOutcome } from '@zhin-gen/runtime';
import { manifest } from '../zhin-capabilities.gen.js';

export interface TurnReport {
  readonly tools: readonly string[];
  readonly skills: readonly string[];
  readonly outcomes: readonly ToolOutcome[];
}

/** One turn: load the generated manifest, call two tools, end the turn. */
export async function serveTurn(): Promise<TurnReport> {
  const host = createCapabilityHost();
  await host.load(manifest);
  const turn = await host.beginTurn({ sessionKey: 'package-test' });
  try {
    const outcomes = [await turn.execute('echo', { message: 'hi' }), await turn.execute('add', { a: 2, b: 3 })];
    const tools = manifest.tools.map((tool) => tool.qualifiedName);
    return { tools, skills: manifest.skills.map((skill) => skill.qualifiedName), outcomes };
  } finally {
    await turn.end();
  }
}
`,
  // A tree written before the split: zhin-gen/runtime re-exports the runtime, types included, and
  // the manifest's augmentation of @zhin-gen/runtime reaches it (ToolName is the literal union).
  'src/legacy.ts': `import type { ToolName } from 'zhin-gen/runtime';

export const known: ToolName = 'echo';
// @ts-expect-error not a tool of this bot
export const unknown: ToolName = 'nope';
`,
  'src/main.ts': `import { serveTurn } from './host.js';

const report = await serveTurn();
console.log(JSON.stringify(report));
`,
  'vite.config.ts': `import { defineConfig } from 'vite';
import zhinGen from 'zhin-gen/vite';

// A bot is a server program: build its entry for Node (dependencies stay imports of node_modules).
export default defineConfig({
  plugins: [zhinGen()],
  build: { ssr: 'src/main.ts', outDir: 'dist', target: 'node20' },
});
`,
};
