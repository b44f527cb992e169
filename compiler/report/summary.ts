/**
 * The run summary: the one line the CLI (`generate`, `watch`) and the Vite dev server print after
 * a run, its JSON form (`generate --json`, each line of `watch --json`; documented in
 * docs/cli.md), and the duration and count wording they share.
 */
import type { CompileResult } from '../context.js';
import { toJsonDiagnostics } from './machine.js';

/** `1 tool`, `2 tools`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Durations for people: whole milliseconds under a second (`42 ms`), seconds with one decimal
 * from there (`1.3 s`); a run is never reported as `1342 ms` or `1.342 s`. JSON carries `ms`.
 */
export function formatDuration(ms: number): string {
  if (ms < 999.5) return `${Math.max(0, Math.round(ms))} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function summary(result: CompileResult): string {
  // From the counts, not the model: a run that found nothing to do never builds the model.
  const m = result.counts;
  const counts = [
    plural(m.tools, 'tool'),
    plural(m.skills, 'skill'),
    plural(m.agents, 'agent'),
    plural(m.promptSections, 'prompt section'),
    plural(m.hooks, 'hook'),
  ].join(', ');
  const problems =
    result.errors + result.warnings > 0
      ? `; ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}`
      : '';
  return `zhin-gen: ${counts}${problems} → ${result.outRel} (${outputState(result)}) in ${formatDuration(result.stats.ms)}`;
}

function outputState(result: CompileResult): 'not written' | 'written' | 'unchanged' {
  return result.errors > 0 ? 'not written' : result.written ? 'written' : 'unchanged';
}

/** `generate --json` and each line of `watch --json` (documented in docs/cli.md). */
export function runJson(result: CompileResult): object {
  const m = result.counts;
  return {
    out: result.outRel,
    state: outputState(result),
    counts: {
      tools: m.tools,
      skills: m.skills,
      agents: m.agents,
      promptSections: m.promptSections,
      hooks: m.hooks,
    },
    errors: result.errors,
    warnings: result.warnings,
    ms: Math.round(result.stats.ms),
    parsed: result.stats.parsed,
    workers: result.stats.workers,
    diagnostics: toJsonDiagnostics(result.diagnostics),
  };
}
