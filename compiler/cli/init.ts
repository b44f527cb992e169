/**
 * `zhin-gen init [dir]`: scaffolds a bot that passes `zhin-gen check`, `tsc` and its own
 * `npm test` as written (templates: compiler/scaffold/). Nothing that exists is replaced: every
 * file is created exclusively and the ones already there are listed as skipped. The manifest is
 * generated when there is none yet, so `check` and `tsc` pass before the first build.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { createCompiler } from '../context.js';
import { DEFAULT_OPTIONS } from '../config/load.js';
import type { Diagnostic } from '../diagnostics.js';
import { initPlan, packageJson } from '../scaffold/project.js';
import { writeScaffold } from '../scaffold/write.js';
import type { ScaffoldReport } from '../scaffold/types.js';
import { packageVersion } from '../version.js';
import { formatPretty, palette, shellArg, toJsonDiagnostics } from '../report/index.js';
import { ESM_ADVICE, packageType } from '../util/package-type.js';
import type { Io } from './io.js';

export interface InitArgs {
  readonly dir?: string;
  readonly json: boolean;
}

type ManifestState = 'written' | 'kept' | 'not written';

/** A kept package.json that is not an ES module package: the bot would not load. */
function packageJsonNote(root: string, report: ScaffoldReport): string | undefined {
  if (!report.skipped.includes('package.json')) return undefined;
  try {
    JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  } catch {
    return 'package.json was kept but is not valid JSON';
  }
  return packageType(root)?.esm ? undefined : `package.json was kept and has no "type": "module"; ${ESM_ADVICE}`;
}

type PackageParts = Partial<Record<'scripts' | 'dependencies' | 'devDependencies', Record<string, string>>>;

/**
 * The next steps for a project whose package.json was kept: the packages and scripts the
 * scaffold's would have had and it lacks, and `npm test` only when its test is the scaffold's
 * (an `npm init` package.json's placeholder test exits 1).
 */
function nextSteps(root: string, kept: boolean): string[] {
  const test = '  npm test        # zhin-gen check, tsc, vite build, one turn';
  if (!kept) return ['  npm install', test];
  let theirs: PackageParts;
  try {
    theirs = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as PackageParts;
  } catch {
    return ['  npx zhin-gen check'];
  }
  const ours = JSON.parse(packageJson('bot', packageVersion()).content) as Required<PackageParts>;
  const has = (name: string) => name in (theirs.dependencies ?? {}) || name in (theirs.devDependencies ?? {});
  const add = (deps: Record<string, string>) => Object.keys(deps).filter((name) => !has(name));
  const runtime = add(ours.dependencies);
  const dev = add(ours.devDependencies);
  const scripts = Object.entries(ours.scripts).filter(([name]) => !(name in (theirs.scripts ?? {})));
  return [
    ...(runtime.length > 0 ? [`  npm i ${runtime.join(' ')}`] : []),
    ...(dev.length > 0 ? [`  npm i -D ${dev.join(' ')}`] : []),
    ...(scripts.length > 0
      ? ['  add to package.json "scripts":', ...scripts.map(([name, command]) => `    "${name}": "${command}"`)]
      : []),
    theirs.scripts?.test === ours.scripts.test ? test : '  npx zhin-gen check   # the manifest is current (CI: exit 0)',
  ];
}

export async function runInit(args: InitArgs, io: Io): Promise<number> {
  const root = resolve(args.dir ?? process.cwd());
  if (existsSync(root) && !statSync(root).isDirectory()) {
    io.err(`zhin-gen init: ${root} exists and is not a directory`);
    return 64;
  }
  try {
    mkdirSync(root, { recursive: true });
  } catch (error) {
    // A parent that is a file, a read-only disk: the user's problem to fix, said as such.
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = code ?? message;
    io.err(`zhin-gen init: cannot create ${root}: ${reason}`);
    // --json: the documented document, the folder itself listed as failed (docs/cli.md).
    if (args.json)
      io.out(
        JSON.stringify(
          {
            root,
            written: [],
            skipped: [],
            failed: [{ path: '.', reason }],
            manifest: { file: DEFAULT_OPTIONS.out, state: 'not written' },
            notes: [],
            diagnostics: [],
          },
          null,
          2,
        ),
      );
    return 1;
  }
  const report = writeScaffold(root, initPlan(basename(root), packageVersion()));

  const compiler = createCompiler({ root });
  let manifest: ManifestState;
  let outRel: string;
  let diagnostics: readonly Diagnostic[];
  let errors: number;
  try {
    const first = await compiler.run({ write: false });
    // An existing manifest is a file like any other: init leaves it alone.
    const keep = existsSync(first.outFile);
    const result = keep || first.errors > 0 ? first : await compiler.run({ write: true });
    manifest = keep ? 'kept' : result.errors > 0 ? 'not written' : 'written';
    ({ outRel, diagnostics, errors } = result);
  } finally {
    await compiler.dispose();
  }
  // The manifest is listed like the scaffold's files: created, or there already and kept.
  const written = manifest === 'written' ? [...report.written, outRel] : report.written;
  const skipped = manifest === 'kept' ? [...report.skipped, outRel] : report.skipped;
  const note = packageJsonNote(root, report);
  const status = report.failed.length > 0 || errors > 0 ? 1 : 0;

  if (args.json) {
    io.out(
      JSON.stringify(
        {
          root,
          written,
          skipped,
          failed: report.failed,
          manifest: { file: outRel, state: manifest },
          notes: note ? [note] : [],
          diagnostics: toJsonDiagnostics(diagnostics),
        },
        null,
        2,
      ),
    );
    return status;
  }
  const colors = palette(io.isTTY);
  const lines = [`zhin-gen init: ${root}`];
  for (const path of written) lines.push(`  created  ${path}${path === outRel ? ' (generated)' : ''}`);
  for (const path of skipped)
    lines.push(
      colors.dim(
        `  skipped  ${path} (exists; kept as it is${path === outRel ? '; zhin-gen generate updates it' : ''})`,
      ),
    );
  for (const { path, reason } of report.failed) lines.push(colors.red(`  failed   ${path}: ${reason}`));
  if (manifest === 'not written') lines.push(colors.red(`  not generated: ${outRel} (the tree has errors, see above)`));
  if (diagnostics.length > 0) io.err(formatPretty(diagnostics, palette(io.errTTY ?? io.isTTY), { root }));
  if (note) lines.push(colors.yellow(`note: ${note}`));
  lines.push(
    `${written.length} created, ${skipped.length} skipped${report.failed.length ? `, ${report.failed.length} failed` : ''}.`,
  );
  if (status === 0) {
    const where = relative(process.cwd(), root);
    lines.push(
      '',
      'Next:',
      ...(where === '' ? [] : [`  cd ${shellArg(where)}`]),
      ...nextSteps(root, report.skipped.includes('package.json')),
    );
  }
  io.out(lines.join('\n'));
  return status;
}
