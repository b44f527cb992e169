/**
 * `zhin-gen migrate [--root DIR] [--write] [--json]`: prints the plan; with `--write` applies it,
 * then compiles the tree and prints the diagnostics that are left (nothing is generated: run
 * `zhin-gen generate` once they are fixed). Exit 1 when something cannot be converted or the
 * migrated tree has compile errors.
 */
import type { Compiler } from '../context.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Io } from '../cli/io.js';
import { palette, plural, toJsonDiagnostics } from '../report/index.js';
import { applyPlan } from './apply.js';
import { formatPlan, planJson } from './format.js';
import { planMigration } from './plan.js';

export interface MigrateArgs {
  readonly write: boolean;
  readonly json: boolean;
}

export async function runMigrate(
  compiler: Compiler,
  args: MigrateArgs,
  io: Io,
  pretty: (diagnostics: readonly Diagnostic[]) => string,
): Promise<number> {
  const plan = planMigration(compiler.root);
  const cannot = plan.notes.some((n) => n.severity === 'error');
  if (!args.write) {
    // Nothing is written: each note points at the file as it is now.
    const now = { ...plan, notes: plan.notesNow };
    if (args.json) io.out(JSON.stringify({ ...planJson(now), written: false }, null, 2));
    else io.out(formatPlan(now, palette(io.isTTY), false));
    return cannot ? 1 : 0;
  }
  try {
    applyPlan(compiler.root, plan);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`zhin-gen migrate: writing failed, every file is as it was: ${message}`);
    return 1;
  }
  const result = await compiler.run({ write: false });
  if (args.json) {
    io.out(
      JSON.stringify({ ...planJson(plan), written: true, diagnostics: toJsonDiagnostics(result.diagnostics) }, null, 2),
    );
  } else {
    io.out(formatPlan(plan, palette(io.isTTY), true));
    io.out('');
    if (result.diagnostics.length > 0) io.err(pretty(result.diagnostics));
    // Nothing was there to apply: no "applied" after "nothing to migrate".
    const applied = plan.changes.length > 0 ? 'applied. The compiler reports' : 'the compiler reports';
    io.out(
      `zhin-gen migrate: ${applied} ${plural(result.errors, 'error')} and ${plural(result.warnings, 'warning')} on the ${plan.changes.length > 0 ? 'migrated ' : ''}tree${result.errors === 0 ? '; run zhin-gen generate' : ''}.`,
    );
  }
  return cannot || result.errors > 0 ? 1 : 0;
}
