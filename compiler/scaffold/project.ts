/**
 * Templates of a bot project (`zhin-gen init`): package.json, tsconfig.json, vite.config.ts, the
 * host script (src/main.ts) and .gitignore, plus the example capability tree.
 *
 * Decisions:
 * - Dependency split: what the built bot imports at run time is a dependency — the runtime
 *   (`@zhin-gen/runtime`) and `zod`, because the tools build their input schemas with Zod when
 *   their module loads and the runtime validates with that schema. The compiler, Vite,
 *   TypeScript and Node's types are dev dependencies: `npm prune --omit=dev` leaves a bot that runs.
 * - ES modules (`"type": "module"`): the runtime and the generated manifest are ESM.
 * - The build is Vite's SSR (library) build of src/main.ts: a bot is a server, not a page, so
 *   `vite build` must not look for index.html. Packages stay external (SSR default), so the
 *   built bot loads them from node_modules.
 * - `npm test` does what CI should: the manifest is current (`zhin-gen check`), the tree
 *   type-checks (`tsc`), the bot builds and serves one turn (`node dist/main.js`).
 */
import { agentFiles, agentsMdFile, sectionFile, skillFile, toolFile } from './capabilities.js';
import type { ScaffoldFile, ScaffoldPlan } from './types.js';

/** Ranges of the packages a bot needs besides zhin-gen's own (a test holds them to the installed majors). */
export const BOT_PACKAGE_RANGES = {
  zod: '^4.0.0',
  vite: '^8.0.0',
  typescript: '^5.9.0',
  '@types/node': '^20.19.0',
} as const;

/** The example tool the host script calls; its qualifiedName is its directory name. */
export const EXAMPLE_TOOL = 'echo';
/** The example skill and its private tool (qualifiedName `words__count`). */
export const EXAMPLE_SKILL = 'words';
export const EXAMPLE_SKILL_TOOL = 'count';
export const EXAMPLE_AGENT = 'reviewer';
export const EXAMPLE_SECTION = 'house-style';

/** An npm package name from a directory name (`My Bot` → `my-bot`). */
export function packageNameOf(dirName: string): string {
  const name = dirName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[-._~]+|[-._~]+$/g, '');
  return name === '' ? 'zhin-bot' : name.slice(0, 214);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function packageJson(name: string, zhinGenVersion: string): ScaffoldFile {
  const own = `^${zhinGenVersion}`;
  return {
    path: 'package.json',
    content: json({
      name,
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        generate: 'zhin-gen generate',
        check: 'zhin-gen check',
        build: 'vite build',
        start: 'node dist/main.js',
        test: 'zhin-gen check && tsc --noEmit && vite build && node dist/main.js',
      },
      dependencies: { '@zhin-gen/runtime': own, zod: BOT_PACKAGE_RANGES.zod },
      devDependencies: {
        '@types/node': BOT_PACKAGE_RANGES['@types/node'],
        typescript: BOT_PACKAGE_RANGES.typescript,
        vite: BOT_PACKAGE_RANGES.vite,
        'zhin-gen': own,
      },
    }),
  };
}

export const TSCONFIG: ScaffoldFile = {
  path: 'tsconfig.json',
  content: json({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['**/*.ts'],
    exclude: ['node_modules', 'dist'],
  }),
};

export const VITE_CONFIG: ScaffoldFile = {
  path: 'vite.config.ts',
  content: `import { defineConfig } from 'vite';
import zhinGen from 'zhin-gen/vite';

// A bot is a Node server: build its server entry (SSR), not an index.html page. Packages stay
// external, so the built bot imports @zhin-gen/runtime and zod from node_modules.
export default defineConfig({
  plugins: [zhinGen()],
  build: {
    ssr: 'src/main.ts',
    outDir: 'dist',
    target: 'node20',
  },
});
`,
};

export const HOST_SCRIPT: ScaffoldFile = {
  path: 'src/main.ts',
  content: `/**
 * Serves one turn: load the manifest, begin a turn for an IM message, execute tools, print the
 * outcomes. In a real bot the message comes from your adapter and the calls from the model
 * (\`turn.modelTools()\` lists what to send it, \`turn.systemPrompt()\` what to tell it).
 */
import { PermissionHost, createCapabilityHost, type ImMessage, type ToolOutcome } from '@zhin-gen/runtime';
import { manifest } from '../zhin-capabilities.gen.js';

/** One line per call: the tool, how it ended and its output (or why it did not run). */
function show(tool: string, outcome: ToolOutcome): void {
  const detail = outcome.status === 'completed' ? JSON.stringify(outcome.output) : outcome.status === 'failed' ? outcome.error.message : outcome.reason;
  console.log(\`\${tool}: \${outcome.status} \${detail}\`);
  if (outcome.status !== 'completed') process.exitCode = 1;
}

const host = createCapabilityHost({ permissions: new PermissionHost() });
await host.load(manifest);

const message: ImMessage = { $adapter: 'console', $channel: { id: 'local', type: 'private' }, $sender: { id: 'me' } };
const turn = await host.beginTurn({ sessionKey: 'console:private:local', message });
try {
  show('${EXAMPLE_TOOL}', await turn.execute('${EXAMPLE_TOOL}', { message: 'hello from zhin-gen' }, { toolUseId: 'call_1' }));
  // A skill's private tools are disclosed once the skill is loaded.
  await turn.deferred.loadSkill('${EXAMPLE_SKILL}');
  show('${EXAMPLE_SKILL}__${EXAMPLE_SKILL_TOOL}', await turn.execute('${EXAMPLE_SKILL}__${EXAMPLE_SKILL_TOOL}', { text: 'one two three' }, { toolUseId: 'call_2' }));
} finally {
  await turn.end();
  await host.close();
}
`,
};

export const GITIGNORE: ScaffoldFile = {
  path: '.gitignore',
  content: 'node_modules/\ndist/\nzhin-gen-report.html\n',
};

/** The example capability tree: what each kind of capability looks like, all of it type-checked. */
export function exampleTree(title: string): ScaffoldPlan {
  return [
    agentsMdFile(
      '',
      title,
      `You are the assistant of this bot. Answer in the user's language.

## Tone

Friendly, short, concrete.

## Tools

Use \`${EXAMPLE_TOOL}\` to repeat a message back. Load the \`${EXAMPLE_SKILL}\` skill to count words.`,
    ),
    toolFile(`tools/${EXAMPLE_TOOL}`, {
      description: 'Echo a message back',
      fields: ['message: z.string().min(1)'],
      params: ['message'],
      body: 'return `echo: ${message}`;',
    }),
    skillFile(`skills/${EXAMPLE_SKILL}`, EXAMPLE_SKILL, {
      description: 'Count the words of a text; use when the user asks how long a text is.',
      instructions: `Call \`${EXAMPLE_SKILL}__${EXAMPLE_SKILL_TOOL}\` with the text and reply with the number.`,
    }),
    toolFile(`skills/${EXAMPLE_SKILL}/tools/${EXAMPLE_SKILL_TOOL}`, {
      description: 'Count the words of a text',
      fields: ['text: z.string()'],
      params: ['text'],
      body: 'return text.split(/\\s+/).filter(Boolean).length;',
    }),
    ...agentFiles(`agents/${EXAMPLE_AGENT}`, EXAMPLE_AGENT, {
      description: 'Reviews a text the user submits and reports concrete problems.',
      system: 'You review texts that users submit and report concrete problems.',
      boundaries: 'Never rewrite the text yourself; only report what is wrong.',
      conventions: 'Quote the exact words you object to. One finding per bullet.',
    }),
    sectionFile(`prompt-sections/${EXAMPLE_SECTION}`, {
      title: 'House style',
      content: 'Keep replies under five sentences unless the user asks for more.',
    }),
  ];
}

/** Everything `zhin-gen init` writes, in the order it is listed. */
export function initPlan(dirName: string, zhinGenVersion: string): ScaffoldPlan {
  const name = packageNameOf(dirName);
  return [packageJson(name, zhinGenVersion), TSCONFIG, VITE_CONFIG, HOST_SCRIPT, GITIGNORE, ...exampleTree(name)];
}
