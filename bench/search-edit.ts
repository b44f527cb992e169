/**
 * The discover index's cost per edit of a searched text (compiler/emit/search-module.ts), in
 * process, on the documents of a generated tree as the compiler builds them: the compiler's
 * `SearchEncoder` (kept on its emit memo across watch-mode runs) re-encoding after one tool's
 * description changed, against a fresh `encodeSearchData` of the same documents — what every such
 * edit cost before, and the floor here. BENCH_COMPARE=<checkout> also times that checkout's own
 * `encodeSearchData` (its runtime source), alternating edit by edit, and checks every output of
 * the three is byte-identical. Also one tool added (every later document renumbered: the
 * encoder's `#renumber`, no unchanged document tokenized again) and, under `--expose-gc`, the
 * heap a fresh encoder keeps for the catalog (what a watch session or dev server holds).
 *
 *   node --expose-gc --import tsx bench/search-edit.ts    (BENCH_SIZES=1000,5000 BENCH_EDITS=15)
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCompiler } from '../compiler/index.js';
import { encodeSearchData, SearchEncoder, searchDocument } from '../runtime/deferred/search-data.js';
import { generateTree } from './gen-tree.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const sizes = (process.env.BENCH_SIZES ?? '1000,5000').split(',').map(Number);
const edits = Number(process.env.BENCH_EDITS ?? 15);
const compare = process.env.BENCH_COMPARE
  ? ((await import(pathToFileURL(join(process.env.BENCH_COMPARE, 'runtime', 'deferred', 'search-data.ts')).href)) as {
      encodeSearchData: typeof encodeSearchData;
    })
  : undefined;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const time = (f: () => string): [number, string] => {
  const started = performance.now();
  const out = f();
  return [performance.now() - started, out];
};

console.log(
  '| N tools | index size | fresh encode (floor) | previous build, fresh | incremental after one edit | incremental / floor | one tool added | encoder heap | load |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
const collect = (globalThis as { gc?: () => void }).gc;
/** The heap after a full collection (MB), when the process runs with --expose-gc. */
const heapMb = (): number => {
  collect?.();
  return process.memoryUsage().heapUsed / 1048576;
};
for (const n of sizes) {
  const root = join(HERE, 'trees', `tree-${n}`);
  if (!existsSync(join(root, 'AGENTS.md'))) generateTree(n, root);
  const compiler = createCompiler({ root, cacheFile: false });
  const { model } = await compiler.run({ write: false });
  await compiler.dispose();
  const tools = [...model.tools].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : 1));
  let docs = tools.map((t) => searchDocument(t.qualifiedName, t.keywords, t.tags, t.description));
  const skills = model.skills.map((s) => searchDocument(s.qualifiedName, s.keywords, s.tags, s.description));
  const heapBefore = heapMb();
  const encoder = new SearchEncoder();
  encoder.encode(docs, skills);
  const encoderHeap = collect ? `${(heapMb() - heapBefore).toFixed(1)} MB` : '—';
  const fresh: number[] = [];
  const previous: number[] = [];
  const incremental: number[] = [];
  let size = 0;
  for (let i = -2; i < edits; i++) {
    // One tool's description, as a save in watch mode changes it (a new word included).
    const at = ((i + 2) * 331) % docs.length;
    const tool = tools[at]!;
    docs = docs.slice();
    docs[at] = searchDocument(
      tool.qualifiedName,
      tool.keywords,
      tool.tags,
      `bench edit ${i} word${i} ${tool.description}`,
    );
    const [incrementalMs, patched] = time(() => encoder.encode(docs, skills));
    const [freshMs, whole] = time(() => encodeSearchData(docs, skills));
    const [previousMs, old] = compare ? time(() => compare.encodeSearchData(docs, skills)) : [Number.NaN, whole];
    if (patched !== whole || old !== whole) throw new Error(`edit ${i}: the encodings differ`);
    size = whole.length;
    if (i < 0) continue;
    incremental.push(incrementalMs);
    fresh.push(freshMs);
    previous.push(previousMs);
  }
  const added: number[] = [];
  for (let i = 0; i < 5; i++) {
    // A new tool sorted into the middle of the table: every document after it is renumbered.
    const at = docs.length >> 1;
    const name = `${tools[at]!.qualifiedName}-added${i}`;
    docs = [...docs.slice(0, at), searchDocument(name, [], [], `bench added ${i}`), ...docs.slice(at)];
    const [addedMs, patched] = time(() => encoder.encode(docs, skills));
    if (patched !== encodeSearchData(docs, skills)) throw new Error(`addition ${i}: the encodings differ`);
    added.push(addedMs);
  }
  const floor = median(fresh);
  console.log(
    `| ${n.toLocaleString('en')} | ${(size / 1024).toFixed(0)} KB | ${floor.toFixed(1)} ms | ${compare ? `${median(previous).toFixed(1)} ms` : '—'} | ${median(incremental).toFixed(2)} ms | ${(median(incremental) / floor).toFixed(3)}× | ${median(added).toFixed(1)} ms | ${encoderHeap} | ${load()} |`,
  );
}
