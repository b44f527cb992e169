/**
 * Micro-benchmark of the schema fast path for one realistic tool (40 lines, 6-field schema, one
 * helper import): parse (the parse stage's cost, for scale), extract, evaluate + convert.
 * Run: node --import tsx bench/schema-micro.ts [iterations]
 */
import path from 'node:path';
import { ts } from 'ts-morph';
import { extractSchemaSnippet } from '../compiler/schema/extract.js';
import { evaluateInlineSnippets } from '../compiler/schema/evaluate.js';
import { convertSchemaValue } from '../compiler/schema/convert.js';

const TOOL = `import { defineAgentTool } from '@zhin.js/tool';
import { z } from 'zod';
import { shorten, LIMITS } from './helper.js';

/** Modes the short-link service supports. */
const Mode = z.enum(['short', 'qr', 'both']);

const Input = z.object({
  url: z.string().url().describe('The long URL to shorten'),
  alias: z.string().min(3).max(LIMITS.alias).regex(/^[a-z0-9-]+$/).optional(),
  mode: Mode.default('short'),
  expiresInDays: z.number().int().min(1).max(365).default(30),
  tags: z.array(z.string().min(1)).max(10).optional(),
  owner: z.object({ id: z.string(), team: z.string().optional() }).describe('Who owns the link'),
});

type Input = z.infer<typeof Input>;

function describeResult(input: Input, short: string): string {
  const parts = [\`Short link: \${short}\`];
  if (input.mode !== 'short') parts.push('QR code attached');
  if (input.tags?.length) parts.push(\`Tags: \${input.tags.join(', ')}\`);
  return parts.join('\\n');
}

export default defineAgentTool({
  description: 'Shorten a URL and optionally produce a QR code',
  inputSchema: Input,
  requiresApproval: 'never',
  scopes: ['private', 'group'],
  permissions: ['adapter(qq)'],
  async execute(input, context) {
    context.signal.throwIfAborted();
    const short = await shorten(input.url, { alias: input.alias, days: input.expiresInDays });
    return describeResult(input, short);
  },
});
`;
const HELPER = `export const LIMITS = { alias: 32 } as const;
export async function shorten(url: string, options: { alias?: string; days: number }): Promise<string> {
  return 'https://s.example/' + (options.alias ?? url.length.toString(36));
}
`;

const abs = path.resolve('bench/virtual/tools/short-url/index.ts');
const files = new Map([
  [abs, TOOL],
  [path.resolve('bench/virtual/tools/short-url/helper.ts'), HELPER],
]);
const readFile = (p: string): string | undefined => files.get(p);
const n = Number(process.argv[2] ?? 2000);

function parse(): ts.SourceFile {
  return ts.createSourceFile('tools/short-url/index.ts', TOOL, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}
function findSchema(sf: ts.SourceFile): ts.Expression {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (!found && ts.isPropertyAssignment(node) && node.name.getText(sf) === 'inputSchema') found = node.initializer;
    else ts.forEachChild(node, visit);
  };
  visit(sf);
  return found!;
}
function time(label: string, fn: () => void, iterations = n): number {
  for (let i = 0; i < Math.min(200, iterations); i++) fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const per = (performance.now() - start) / iterations;
  console.log(`${label.padEnd(44)} ${per.toFixed(3)} ms`);
  return per;
}

const sf = parse();
const expr = findSchema(sf);
const snippet = extractSchemaSnippet(sf, expr, { absPath: abs, readFile, static: false });
if (snippet.kind !== 'inline') throw new Error(`expected inline, got ${snippet.kind}`);
const translated = extractSchemaSnippet(sf, expr, { absPath: abs, readFile });
if (translated.kind !== 'static') throw new Error(`expected static, got ${translated.kind}`);
const check = convertSchemaValue((evaluateInlineSnippets([snippet.code])[0] as { value: unknown }).value);
if (!check?.ok) throw new Error(JSON.stringify(check));
if (JSON.stringify(check.schema) !== JSON.stringify(translated.schema))
  throw new Error('static translation differs from Zod');

console.log(`schema fast path, ${n} iterations, node ${process.version}`);
time('parse (parse stage, for scale)', () => void parse());
time('extract + static translation (no Zod)', () => void extractSchemaSnippet(sf, expr, { absPath: abs, readFile }));
const extract = time(
  'extract (incl. helper parse)',
  () => void extractSchemaSnippet(sf, expr, { absPath: abs, readFile, static: false }),
);
const single = time('evaluate + convert, one per vm call', () => {
  const [r] = evaluateInlineSnippets([snippet.code]);
  convertSchemaValue((r as { value: unknown }).value);
});
const batch =
  time(
    'evaluate + convert, batched (50 per call)',
    () => {
      const rs = evaluateInlineSnippets(Array.from({ length: 50 }, () => snippet.code));
      for (const r of rs) convertSchemaValue((r as { value: unknown }).value);
    },
    Math.max(1, Math.round(n / 50)),
  ) / 50;
console.log(`${'  → per tool, batched'.padEnd(44)} ${batch.toFixed(3)} ms`);
console.log(
  `${'extract + evaluate + convert per tool'.padEnd(44)} ${(extract + batch).toFixed(3)} ms (unbatched ${(extract + single).toFixed(3)} ms)`,
);
