/**
 * The fast path: run inline snippets in a `node:vm` context whose only non-standard global is
 * zhin-gen's own Zod. No `process`, `require`, `console` or module loader exists there, string
 * code generation (eval / new Function) is off, and every run has a timeout. The extractor only
 * emits snippets whose free names are copied declarations, Zod or pure built-ins; this context is
 * the second line of defence, not a security boundary (the fallback runs the same user code
 * anyway, in a child process).
 *
 * Snippets are run in batches: a `runInContext` with a timeout starts a watchdog thread, which
 * measured ~0.45 ms per call, more than evaluating a typical schema.
 */
import vm from 'node:vm';
import { z } from 'zod';
import { convertSchemaValue } from './convert.js';
import { ZOD_GLOBAL } from './snippet-names.js';
import type { ConvertResult } from './types.js';

export type InlineEvaluation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly timedOut: boolean };

const BATCH = 50;
let context: vm.Context | undefined;

function sandbox(): vm.Context {
  if (!context) {
    // One context for the process: creating one costs ~0.7 ms. Snippets run in their own
    // function scopes in strict mode, so they cannot leave globals behind for each other.
    context = vm.createContext({}, { name: 'zhin-gen inputSchema', codeGeneration: { strings: false, wasm: false } });
    Object.defineProperty(context, ZOD_GLOBAL, { value: z, enumerable: false, writable: false, configurable: false });
    // V8 gives every context a `console` (wired to the inspector); a schema has no use for it.
    vm.runInContext('delete globalThis.console;', context);
  }
  return context;
}

function errorMessage(error: unknown): string {
  // Errors come from the vm realm, so `instanceof Error` is false for them.
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return `${typeof name === 'string' ? `${name}: ` : ''}${String(message)}`;
  }
  return String(error);
}

function isTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
  );
}

function runBatch(bodies: readonly string[], timeoutMs: number): InlineEvaluation[] {
  // Plain function expressions passed to one runner: V8 compiles them lazily and once, whereas
  // parenthesised IIFEs are compiled eagerly — measured ~2× slower over 5,000 snippets.
  const parts = bodies.map((body) => `__zg_out.push(__zg_run(function () {\n${body}\n}));`);
  const runner =
    'function __zg_run(f) { try { return { ok: true, value: f() }; } catch (error) { return { ok: false, error }; } }';
  const script = new vm.Script(`(() => { const __zg_out = [];\n${runner}\n${parts.join('\n')}\nreturn __zg_out; })()`, {
    filename: 'zhin-gen-inputSchema.js',
  });
  const raw = script.runInContext(sandbox(), { timeout: timeoutMs }) as {
    ok: boolean;
    value?: unknown;
    error?: unknown;
  }[];
  return raw.map((r) =>
    r.ok ? { ok: true, value: r.value } : { ok: false, message: errorMessage(r.error), timedOut: false },
  );
}

/**
 * Evaluates snippet bodies (from `extractSchemaSnippet`) and returns their values in order. A
 * batch that times out is re-run one snippet at a time so only the hanging one is blamed.
 */
export function evaluateInlineSnippets(bodies: readonly string[], timeoutMs = 1000): InlineEvaluation[] {
  const out: InlineEvaluation[] = [];
  for (let start = 0; start < bodies.length; start += BATCH) {
    const batch = bodies.slice(start, start + BATCH);
    try {
      out.push(...runBatch(batch, timeoutMs));
    } catch (error) {
      for (const body of batch) {
        try {
          out.push(...runBatch([body], timeoutMs));
        } catch (single) {
          out.push({
            ok: false,
            message: isTimeout(single) ? `timed out after ${timeoutMs} ms` : errorMessage(single),
            timedOut: isTimeout(single),
          });
        }
      }
      void error; // the batch error is re-discovered per snippet above
    }
  }
  return out;
}

/**
 * One snippet, evaluated and converted. `undefined` means the expression evaluated to
 * `undefined` (treated like an absent inputSchema, as the runtime does); a thrown error is
 * reported as `{ ok: false, code: 'ZG2023' }`, though the stage prefers the fallback for those.
 */
export function evaluateSnippet(body: string, timeoutMs = 1000): ConvertResult | undefined {
  const [result] = evaluateInlineSnippets([body], timeoutMs);
  if (!result!.ok) return { ok: false, code: 'ZG2023', message: result!.message };
  return convertSchemaValue(result!.value);
}
