/**
 * The dev-regeneration benchmarks' tree (bench/dev-regen.ts, bench/dev-hmr.ts): N tools spread over
 * tools/, skills/<s>/tools/, agents/<a>/tools/ and a child plugin, and the tool source each edit rewrites.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = dirname(fileURLToPath(import.meta.url));
/** Where the compiler and the plugin under test come from (this checkout, or BENCH_CHECKOUT). */
export const CHECKOUT = process.env.BENCH_CHECKOUT ?? join(HERE, '..');

/** The manifest with the tool shards it imports (a large bot's table: compiler/emit/shards.ts). */
export function manifestText(root: string, main: string): string {
  const shards = [...main.matchAll(/^import shard\d+ from "\.\/([^"]+)\.js";$/gm)].map((m) =>
    readFileSync(join(root, `${m[1]}.ts`), 'utf8'),
  );
  return [main, ...shards].join('\n');
}

export const toolSource = (n: number, variant: number): string => `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';

const input = z.object({
  query: z.string().min(1).describe('What to look up (${n})'),
  limit: z.number().int().min(1).max(50).default(10),
  tags: z.array(z.string()).optional(),
  mode: z.enum(['fast', 'full']).optional(),${variant > 0 ? `\n  extra${variant}: z.boolean().optional(),` : ''}
});

export default defineAgentTool<z.input<typeof input>>({
  description: 'Look up records of kind ${n} and summarise them for the user',
  inputSchema: input,
  requiresApproval: 'never',
  async execute({ query, limit }) {
    return { query, limit, kind: ${n} };
  },
});
`;

const md = (title: string, body: string): string => `# ${title}\n\n${body}\n`;

/** Writes an N-tool tree; returns the path of the tool whose schema the benchmark edits. */
export function generateTree(root: string, n: number): string {
  rmSync(root, { recursive: true, force: true });
  const files = new Map<string, string>();
  const perSkill = 10;
  const skillTools = Math.floor(n * 0.15);
  const agentTools = Math.floor(n * 0.15);
  const childTools = Math.floor(n * 0.1);
  const rootTools = n - skillTools - agentTools - childTools;
  let k = 0;
  const pad = (i: number): string => String(i).padStart(5, '0');
  for (let i = 0; i < rootTools; i++) files.set(`tools/lookup-${pad(i)}/index.ts`, toolSource(k++, 0));
  for (let i = 0; i < skillTools; i++) {
    const skill = `skill-${pad(Math.floor(i / perSkill))}`;
    if (i % perSkill === 0)
      files.set(
        `skills/${skill}/SKILL.md`,
        `---\nname: ${skill}\ndescription: Skill ${skill} for the benchmark.\n---\nUse the tools of ${skill}.\n`,
      );
    files.set(`skills/${skill}/tools/op-${pad(i)}/index.ts`, toolSource(k++, 0));
  }
  if (agentTools > 0) files.set('AGENTS.md', md('Bench bot', 'Main agent.'));
  for (let i = 0; i < agentTools; i++) {
    const agent = `agent-${pad(Math.floor(i / perSkill))}`;
    if (i % perSkill === 0) {
      files.set(`agents/${agent}/agent.json`, JSON.stringify({ description: `Agent ${agent} for the benchmark.` }));
      files.set(`agents/${agent}/system.md`, md('System', `You are ${agent}.`));
      files.set(`agents/${agent}/boundaries.md`, md('Boundaries', 'Stay in scope.'));
      files.set(`agents/${agent}/conventions.md`, md(`${agent} conventions`, 'Be brief.'));
    }
    files.set(`agents/${agent}/tools/act-${pad(i)}/index.ts`, toolSource(k++, 0));
  }
  for (let i = 0; i < childTools; i++) files.set(`plugins/svc/tools/svc-${pad(i)}/index.ts`, toolSource(k++, 0));
  for (const [path, content] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return join(root, `tools/lookup-${pad(0)}/index.ts`);
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;
