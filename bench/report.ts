/**
 * What writing the capability report costs (docs/report.md), per phase, as multiples of the
 * floor measured in the same process: one warm `compiler.run({ write: false })` of the same
 * tree (what `inspect` pays). The page's own speed in the browser (first paint, search) is
 * measured by test/compiler/report/large.test.ts.
 *
 *   node --import tsx bench/report.ts [N ...]      (default 1000 5000)
 *
 * It runs the sources under tsx, whose loader also sees the generated manifest's data: URL
 * import: evaluating the manifest costs several times more here than in the built CLI (compare
 * `zhin-gen report --json`'s `ms` with `zhin-gen inspect`).
 */
import { join } from 'node:path';
import { manifestFromCode } from '../compiler/cli/catalog.js';
import { createCompiler } from '../compiler/context.js';
import { accessMatrix } from '../compiler/report/page/access.js';
import { reportHost } from '../compiler/report/page/host.js';
import { buildReport, principalsOf } from '../compiler/report/page/index.js';
import { collectStages } from '../compiler/report/page/stages.js';
import { generateTree } from './gen-tree.js';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await run();
  return [value, Math.round(performance.now() - started)];
};

for (const n of sizes.length ? sizes : [1000, 5000]) {
  const root = join(import.meta.dirname, 'trees', `report-${n}`);
  generateTree(n, root);
  const compiler = createCompiler({ root });
  await compiler.run({ write: false });
  const [result, floor] = await time(() => compiler.run({ write: false }));
  const principals = principalsOf(result.model);
  const [manifest, evaluate] = await time(() => manifestFromCode(result.code));
  const [, access] = await time(() => accessMatrix(manifest, principals));
  const host = await reportHost(manifest);
  const [sets, stages] = await time(() => collectStages(host, manifest, principals));
  await host.close();
  const [report, total] = await time(() => buildReport(result, root));
  const ratio = (ms: number) => +(ms / floor).toFixed(1);
  console.log(
    JSON.stringify({
      tools: n,
      principals: principals.length,
      stages: sets.reduce((sum, set) => sum + set.stages.length, 0),
      pageBytes: Buffer.byteLength(report.html),
      floorMs: floor,
      ms: { evaluateManifest: evaluate, access, stages, report: total },
      ratio: { evaluateManifest: ratio(evaluate), access: ratio(access), stages: ratio(stages), report: ratio(total) },
    }),
  );
  await compiler.dispose();
}
