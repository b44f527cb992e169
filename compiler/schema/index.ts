/**
 * The schema stage: turns the snippets the parse stage extracted into each tool's emitted input
 * JSON Schema, or diagnostics at the `inputSchema` position. Inline snippets are evaluated in
 * the vm (batched); those that need it, and inline ones that threw (the extractor may have
 * missed something, so the real module decides), go through ONE bundle + child process. The run
 * always completes: every request gets an outcome.
 */
import type { Writable } from '../util/writable.js';
import { diag } from '../diagnostics.js';
import { convertSchemaValue, EMPTY_INPUT_SCHEMA, finishProjection } from './convert.js';
import { evaluateInlineSnippets } from './evaluate.js';
// The fallback (esbuild + a child process) loads only when some schema needs it.
import type { FallbackTask } from './fallback.js';
import { DEFAULT_RUNTIME_MODULES } from './runtime-modules.js';
import {
  refusedMessage,
  type ConvertResult,
  type SchemaOutcome,
  type SchemaRequest,
  type SchemaStageOptions,
} from './types.js';

export {
  createSchemaModuleCache,
  extractSchemaSnippet,
  type SchemaExtractContext,
  type SchemaModuleCache,
} from './extract.js';
export { EMPTY_INPUT_SCHEMA } from './convert.js';
export { DEFAULT_RUNTIME_MODULES } from './runtime-modules.js';
export type {
  ConvertResult,
  JsonSchema,
  SchemaOrigin,
  SchemaOutcome,
  SchemaRequest,
  SchemaSnippet,
  SchemaStageOptions,
} from './types.js';

function fromResult(
  request: SchemaRequest,
  result: ConvertResult | undefined,
  via: 'inline' | 'bundle',
  sources?: readonly string[],
): SchemaOutcome {
  if (result === undefined || result.ok) {
    // `sources` assigned, not spread (util/writable.ts): one outcome per tool of a cold run.
    const outcome: Writable<Extract<SchemaOutcome, { ok: true }>> = result
      ? { ok: true, schema: result.schema, origin: result.origin, via }
      : { ok: true, schema: EMPTY_INPUT_SCHEMA, origin: 'none', via };
    if (sources) outcome.sources = sources;
    return outcome;
  }
  return withSources(failure(request, result.code, result.message, result.hint, result.path), sources);
}

/** A bundled module's outcome depends on what the bundle read, whether or not it succeeded. */
function withSources(outcome: SchemaOutcome, sources: readonly string[] | undefined): SchemaOutcome {
  return sources && sources.length > 0 ? { ...outcome, sources } : outcome;
}

function failure(
  request: SchemaRequest,
  code: 'ZG2020' | 'ZG2021' | 'ZG2022' | 'ZG2023',
  message: string,
  hint?: string,
  path?: readonly (string | number)[],
): SchemaOutcome {
  return {
    ok: false,
    diagnostics: [
      diag(code, {
        file: request.file,
        line: request.line,
        column: request.column,
        message,
        ...(hint ? { hint } : {}),
      }),
    ],
    ...(path ? { path } : {}),
  };
}

/** Conversion should not throw; if it does, it is this tool's problem, not the run's. */
function safeConvert(value: unknown): ConvertResult | undefined {
  try {
    return convertSchemaValue(value);
  } catch (error) {
    return {
      ok: false,
      code: 'ZG2023',
      message: `Converting inputSchema failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Snippets evaluated per vm run (one watchdog thread each; see evaluate.ts). */
const EVALUATION_CHUNK = 50;

export async function evaluateSchemas(
  requests: readonly SchemaRequest[],
  options: SchemaStageOptions = {},
): Promise<Map<string, SchemaOutcome>> {
  const outcomes = new Map<string, SchemaOutcome>();
  const inline: SchemaRequest[] = [];
  const bundled: SchemaRequest[] = [];
  for (const request of requests) {
    if (!request.snippet)
      outcomes.set(request.id, { ok: true, schema: EMPTY_INPUT_SCHEMA, origin: 'none', via: 'none' });
    else if (request.snippet.kind === 'static')
      outcomes.set(request.id, { ok: true, schema: request.snippet.schema, origin: 'zod', via: 'static' });
    else if (request.snippet.kind === 'inline') inline.push(request);
    else if (request.snippet.kind === 'refused') {
      const { file, line, column, why } = request.snippet;
      outcomes.set(request.id, {
        ok: false,
        diagnostics: [diag('ZG2024', { file, line, column, message: refusedMessage(file, why) })],
      });
    } else bundled.push(request);
  }

  // A chunk at a time, each value converted right after its chunk ran: the Zod objects die young
  // instead of all surviving until every snippet has run (promoting them cost ~0.3 s of
  // garbage collection per 1,000 tools).
  for (let start = 0; start < inline.length; start += EVALUATION_CHUNK) {
    const chunk = inline.slice(start, start + EVALUATION_CHUNK);
    const values = evaluateInlineSnippets(
      chunk.map((r) => (r.snippet as { code: string }).code),
      options.inlineTimeoutMs ?? 1000,
    );
    chunk.forEach((request, i) => {
      const evaluation = values[i]!;
      if (evaluation.ok) outcomes.set(request.id, fromResult(request, safeConvert(evaluation.value), 'inline'));
      else if (evaluation.timedOut)
        outcomes.set(request.id, failure(request, 'ZG2023', `Evaluating inputSchema ${evaluation.message}`));
      else bundled.push(request);
    });
  }

  if (bundled.length > 0) {
    const tasks: FallbackTask[] = bundled.map((r) => ({ id: r.id, absPath: r.absPath }));
    const { runFallback } = await import('./fallback.js');
    const results = await runFallback(tasks, {
      timeoutMs: options.fallbackTimeoutMs ?? 10_000,
      runtimeModules: options.runtimeModules ?? DEFAULT_RUNTIME_MODULES,
      ...(options.tempDir ? { tempDir: options.tempDir } : {}),
    });
    for (const request of bundled) {
      const result = results.get(request.id);
      if (!result)
        outcomes.set(request.id, failure(request, 'ZG2023', 'Evaluating the tool module produced no result'));
      else if (!result.ok)
        outcomes.set(
          request.id,
          withSources(
            failure(request, 'ZG2023', `Evaluating the tool module failed: ${result.message}`),
            result.sources,
          ),
        );
      else {
        let converted: ConvertResult | undefined;
        try {
          converted = finishProjection(result.projection);
        } catch (error) {
          converted = {
            ok: false,
            code: 'ZG2023',
            message: `Converting inputSchema failed: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
        outcomes.set(request.id, fromResult(request, converted, 'bundle', result.sources));
      }
    }
  }
  // Request order, whatever path each tool took.
  return new Map(requests.map((r) => [r.id, outcomes.get(r.id)!]));
}
