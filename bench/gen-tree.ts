/**
 * Deterministic synthetic plugin trees for the benchmarks: N tools spread over the four
 * placements and three levels of child plugins, realistic ~40-line tool modules with Zod schemas
 * of 3–8 fields (formats, limits, enums, bounds, arrays, nested objects, optionals), some importing
 * a schema fragment from a sibling file, some using a `const` schema; helper files, SKILL.md and
 * agent.json files, and noise folders (src/, docs/) the compiler must not read.
 *
 * `node --import tsx bench/gen-tree.ts <N> <dir>`
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Small deterministic PRNG (mulberry32): the same N always gives the same tree (the static
 * schema test draws its random schemas from it too, so a failure names the same schema each run).
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words tool names and descriptions are made of (the turn bench searches with them too). */
export const WORDS = [
  'weather',
  'ticket',
  'music',
  'lottery',
  'search',
  'order',
  'member',
  'channel',
  'reminder',
  'poll',
  'quote',
  'image',
  'translate',
  'stock',
  'news',
  'map',
  'rank',
  'badge',
  'note',
  'timer',
];
const FIELD_KINDS = [
  (n: string) => `${n}: z.string().min(1).max(200).describe('The ${n} to use')`,
  (n: string) => `${n}: z.string().email()`,
  (n: string) => `${n}: z.string().url().optional()`,
  (n: string) => `${n}: z.enum(['low', 'normal', 'high']).default('normal')`,
  (n: string) => `${n}: z.number().int().min(0).max(1000)`,
  (n: string) => `${n}: z.number().min(-90).max(90).optional()`,
  (n: string) => `${n}: z.array(z.string().max(40)).max(10)`,
  (n: string) => `${n}: z.object({ id: z.string(), count: z.number().int().nonnegative() })`,
  (n: string) => `${n}: z.boolean().optional()`,
  (n: string) => `${n}: z.string().datetime()`,
];

function toolModule(name: string, random: () => number, variant: number): { files: Record<string, string> } {
  const fieldCount = 3 + Math.floor(random() * 6);
  const fields = Array.from(
    { length: fieldCount },
    (_, i) => `    ${FIELD_KINDS[Math.floor(random() * FIELD_KINDS.length)]!(`field${i}`)},`,
  );
  const approval = ['never', 'on-risk', 'once', 'always'][Math.floor(random() * 4)];
  const files: Record<string, string> = {};
  let imports =
    "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nimport { format } from './format.js';\n";
  let schemaExpr: string;
  let preamble = '';
  if (variant % 3 === 0) {
    // Schema fragment from a sibling file.
    files['fragment.ts'] =
      `import { z } from 'zod';\n\nexport const paging = z.object({\n  page: z.number().int().min(1).default(1),\n  size: z.number().int().min(1).max(100).default(20),\n});\n`;
    imports += "import { paging } from './fragment.js';\n";
    schemaExpr = `z.object({\n${fields.join('\n')}\n    paging: paging.optional(),\n  })`;
  } else if (variant % 3 === 1) {
    preamble = `const input = z.object({\n${fields.join('\n').replace(/^ {4}/gm, '  ')}\n});\n\n`;
    schemaExpr = 'input';
  } else {
    schemaExpr = `z.object({\n${fields.join('\n')}\n  })`;
  }
  files['format.ts'] =
    `/** Helper beside the tool: formats a result for chat. */\nexport function format(value: unknown): string {\n  return typeof value === 'string' ? value : JSON.stringify(value);\n}\n`;
  files['index.ts'] = `${imports}
${preamble}/**
 * ${name}: a synthetic tool for the zhin-gen benchmarks.
 * It mimics a real plugin tool: a schema, a description, an approval mode and a handler
 * that calls a helper module in its own folder.
 */
export default defineAgentTool({
  description: 'Handle ${name.replace(/-/g, ' ')} requests for the current chat',
  inputSchema: ${schemaExpr},
  requiresApproval: '${approval}',
  scopes: ['group', 'private'],
  async execute(input, context) {
    context.signal.throwIfAborted();
    const started = Date.now();
    const result = { tool: '${name}', input, took: Date.now() - started };
    return format(result);
  },
});
`;
  return { files };
}

export interface TreeStats {
  readonly tools: number;
  readonly files: number;
}

/** Writes a tree of `n` tools into `root` (replacing it). */
export function generateTree(n: number, root: string): TreeStats {
  rmSync(root, { recursive: true, force: true });
  const random = rng(n * 7919);
  let files = 0;
  const write = (path: string, content: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
    files++;
  };
  // Plugins: root, 4 children, each with 2 grandchildren, each with 1 great-grandchild (3 levels).
  const plugins: string[] = [''];
  for (let c = 0; c < 4; c++) {
    const child = `plugins/p${c}`;
    plugins.push(child);
    for (let g = 0; g < 2; g++) {
      const grand = `${child}/plugins/g${g}`;
      plugins.push(grand);
      plugins.push(`${grand}/plugins/d0`);
    }
  }
  const perPlugin = Math.ceil(n / plugins.length);
  let made = 0;
  for (const plugin of plugins) {
    const base = plugin === '' ? '' : `${plugin}/`;
    write(`${base}AGENTS.md`, `# Agent of ${plugin || 'root'}\n\nBe concise.\n\n## Rules\n\nCite sources.\n`);
    write(`${base}src/internal.ts`, 'export const internal = 1;\n');
    write(`${base}docs/guide.md`, '# Guide\n\nNoise the compiler never reads.\n');
    const skillNames = ['alpha', 'beta'];
    for (const skill of skillNames) {
      write(
        `${base}skills/${skill}/SKILL.md`,
        `---\nname: ${skill}\ndescription: Skill ${skill} of ${plugin || 'root'} for synthetic benchmarks.\nkeywords: [${skill}, bench]\n---\n# ${skill}\n\nUse the ${skill} tools step by step.\n`,
      );
    }
    write(
      `${base}agents/helper/agent.json`,
      JSON.stringify({ description: `Helper agent of ${plugin || 'root'}`, maxSteps: 6 }, null, 2),
    );
    write(`${base}agents/helper/system.md`, '# Helper\n\nYou help.\n');
    write(`${base}agents/helper/boundaries.md`, '# Boundaries\n\nNo writes.\n');
    write(`${base}agents/helper/conventions.md`, '# Helper conventions\n\nShort answers.\n');
    write(
      `${base}agents/helper/skills/gamma/SKILL.md`,
      `---\nname: gamma\ndescription: Agent skill gamma.\n---\n# gamma\n\nSteps.\n`,
    );
    for (let i = 0; i < perPlugin && made < n; i++, made++) {
      const word = WORDS[made % WORDS.length]!;
      const name = `${word}-${made}`;
      // Placements: 55% plugin, 15% agent, 20% skill, 10% agent-skill.
      const roll = made % 20;
      const dir =
        roll < 11
          ? `${base}tools/${name}`
          : roll < 14
            ? `${base}agents/helper/tools/${name}`
            : roll < 18
              ? `${base}skills/${skillNames[made % 2]}/tools/${name}`
              : `${base}agents/helper/skills/gamma/tools/${name}`;
      const { files: toolFiles } = toolModule(name, random, made);
      for (const [file, content] of Object.entries(toolFiles)) write(`${dir}/${file}`, content);
    }
  }
  return { tools: made, files };
}

if (process.argv[1]?.endsWith('gen-tree.ts')) {
  const n = Number(process.argv[2] ?? 100);
  const dir = process.argv[3] ?? join(process.cwd(), 'bench', 'trees', `tree-${n}`);
  const stats = generateTree(n, dir);
  console.log(JSON.stringify({ dir, ...stats }));
}
