/**
 * Load verification (`zhin-gen check --load`, the build plugin's `verifyLoad`): the opt-in stage
 * that runs what the compiler otherwise never runs. Every tool, hook and prompt-section module of
 * a clean compile is imported in isolated child processes (tsx's loader, the project root as
 * working directory, the caller's environment) with a per-module time limit, and each real
 * default export is compared with its manifest entry. A module that throws, hangs or whose real
 * definition differs from the static read is an error at the module's definition.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CompileResult } from '../context.js';
import {
  applySeverityOverrides,
  compareDiagnostics,
  diag,
  type Diagnostic,
  type SourceLocation,
} from '../diagnostics.js';
import type { Expectation } from './compare.js';
import type { TaskOutcome } from './pool.js';
import type { ImportSeen, VerifyTask } from './protocol.js';
import { RUNTIME_PACKAGE, runtimeEntryFile } from '../runtime-entry.js';

/** Per-module default: the same as the schema fallback's `schemaTimeoutMs`. */
export const DEFAULT_LOAD_TIMEOUT_MS = 10_000;

export interface VerifyLoadOptions {
  /** Time limit per module import, in ms (default {@link DEFAULT_LOAD_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Child processes importing in parallel (default: one per core, at most 2). */
  readonly concurrency?: number;
}

export interface VerifyLoadResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: number;
  /** Modules imported and compared. */
  readonly modules: number;
  /** True when the compile had errors: its model is incomplete, so nothing was loaded. */
  readonly skipped: boolean;
  readonly ms: number;
}

/** `10s`, `1.5s`, `500ms` → ms; `undefined` for anything else (a bare number has no unit). */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * (match[2] === 's' ? 1000 : 1));
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** First existing file among candidates next to this module (sources: .ts, dist/: .js). */
function sibling(...candidates: string[]): string | undefined {
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

interface Entry {
  readonly task: VerifyTask;
  readonly file: string;
  readonly expectation: Expectation;
}

export async function verifyLoad(result: CompileResult, options: VerifyLoadOptions = {}): Promise<VerifyLoadResult> {
  const started = performance.now();
  if (result.errors > 0) return { diagnostics: [], errors: 0, modules: 0, skipped: true, ms: 0 };
  const { toolExpectation, hookExpectation, sectionExpectation, compareReport } = await import('./compare.js');
  const root = result.options.root;
  const model = result.model;
  const entries: Entry[] = [];
  const add = (id: string, kind: VerifyTask['kind'], source: string, expectation: Expectation): void => {
    entries.push({ task: { id, kind, file: join(root, source) }, file: source, expectation });
  };
  // Tools added by `context.addTool()` in plugin.ts have no module of their own.
  for (const tool of model.tools)
    if (!tool.conditional) add(`tool:${tool.qualifiedName}:${tool.source}`, 'tool', tool.source, toolExpectation(tool));
  for (const hook of model.hooks) add(`hook:${hook.source}`, 'hook', hook.source, hookExpectation(hook));
  for (const section of model.promptSections)
    add(`section:${section.source}`, 'prompt-section', section.source, sectionExpectation(section));
  if (entries.length === 0)
    return { diagnostics: [], errors: 0, modules: 0, skipped: false, ms: performance.now() - started };

  const timeoutMs = options.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const diagnostics: Diagnostic[] = [];
  const childFile = sibling('./child.ts', './child.js');
  const runtime = runtimeEntryFile();
  let loader: string | undefined;
  try {
    loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    loader = undefined;
  }
  if (!childFile || !runtime || !loader) {
    const missing = !loader
      ? 'tsx (a dependency of zhin-gen) cannot be resolved'
      : `zhin-gen is incomplete (${childFile ? `${RUNTIME_PACKAGE} cannot be resolved` : 'verify/child is missing'})`;
    diagnostics.push(
      diag('ZG2055', {
        ...entries[0]!.expectation.loc,
        file: entries[0]!.file,
        message: `Load verification could not run: ${missing}`,
      }),
    );
  } else {
    const { runPool } = await import('./pool.js');
    const aliases = result.options.modules.filter((m) => m.startsWith('@zhin.js/'));
    const seen: ImportSeen[] = [];
    const outcomes = await runPool(
      entries.map((e) => e.task),
      {
        childFile,
        loader,
        cwd: root,
        setup: { aliases, runtimeUrl: pathToFileURL(runtime).href },
        timeoutMs,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        onImports: (imports) => seen.push(...imports),
      },
    );
    // What a production install keeps: the packages the modules imported while loading.
    const { checkDeclaredDependencies } = await import('./declared-deps.js');
    diagnostics.push(...checkDeclaredDependencies(root, seen));
    // A process that cannot start blames no module: one diagnostic for all it could not load.
    const unstarted: Entry[] = [];
    let startMessage = '';
    for (const entry of entries) {
      const outcome = outcomes.get(entry.task.id);
      if (outcome?.ok) diagnostics.push(...compareReport(entry.expectation, entry.file, outcome.report));
      else if (!outcome || outcome.why === 'start') {
        unstarted.push(entry);
        startMessage ||= outcome?.message ?? 'no result';
      } else diagnostics.push(failure(entry, outcome, timeoutMs));
    }
    const first = unstarted[0];
    if (first) {
      const count = `${unstarted.length} module${unstarted.length === 1 ? '' : 's'}`;
      diagnostics.push(
        diag('ZG2055', {
          ...first.expectation.loc,
          file: first.file,
          message: `Load verification could not run for ${count} (from ${first.file} on): ${startMessage}`,
        }),
      );
    }
  }
  const reported = applySeverityOverrides(diagnostics, result.options.diagnostics).sort(compareDiagnostics);
  return {
    diagnostics: reported,
    errors: reported.filter((d) => d.severity === 'error').length,
    modules: entries.length,
    skipped: false,
    ms: performance.now() - started,
  };
}

function failure(entry: Entry, outcome: Extract<TaskOutcome, { ok: false }>, timeoutMs: number): Diagnostic {
  const at: SourceLocation = { ...entry.expectation.loc, file: entry.file };
  const what = entry.expectation.what;
  if (outcome.why === 'timeout' || outcome.why === 'stalled') {
    return diag('ZG2052', {
      ...at,
      message: `${what}: ${entry.file} hangs while loading: ${outcome.message}`,
      ...(outcome.why === 'timeout'
        ? {
            hint: `Top-level code must finish quickly (limit ${timeoutMs} ms per module: --load-timeout, or verifyLoad.timeoutMs in the build plugin). Move network calls, waits and loops into execute(), or start them lazily.`,
          }
        : {}),
    });
  }
  return diag('ZG2051', { ...at, message: `${what}: importing ${entry.file} fails: ${outcome.message}` });
}
