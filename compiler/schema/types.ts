/**
 * Data types of the schema stage. Everything that crosses a stage boundary (snippets from parse,
 * results from the child process) is plain JSON-able data: the AST is gone by the time schemas
 * are evaluated, and the parse cache may persist snippets between runs.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { SchemaOrigin } from '../model.js';
import type { JsonSchema } from '@zhin-gen/runtime';

export type { JsonSchema, SchemaOrigin };

/**
 * What the extractor produced for one `inputSchema` expression.
 * - `inline`: self-contained JS, the body of a function that returns the schema, needing only
 *   the global `__zhinGenZod`; evaluated in a `node:vm` context in the compiler process.
 * - `static`: the expression is in the Zod subset translate.ts understands; `schema` is what
 *   evaluating and projecting it would give (zod-json.ts), so nothing is evaluated.
 * - `fallback`: the expression depends on something the extractor cannot reproduce faithfully
 *   (a package import, a mutable binding, `process`, ...); the tool module is bundled and
 *   imported in a child process instead. `reason` is for logs and tests, not for users.
 */
export type SchemaSnippet =
  | {
      readonly kind: 'inline';
      readonly code: string;
      /** Absolute paths of the other files whose code the snippet contains (sorted). */
      readonly files: readonly string[];
    }
  | {
      readonly kind: 'static';
      readonly schema: JsonSchema;
      /** As for `inline`: the other files the expression reads (sorted). */
      readonly files: readonly string[];
    }
  | { readonly kind: 'fallback'; readonly reason: string }
  | {
      /**
       * The expression reads a module nested too deeply to analyse (parse/depth.ts): reported at
       * that module's too-deep position (ZG2024), never bundled (esbuild and Node would recurse
       * over it just the same).
       */
      readonly kind: 'refused';
      readonly file: string;
      readonly line: number;
      readonly column: number;
      /** Which limit it passed (parse/depth.ts), for the message. */
      readonly why: string;
      /** As for `inline`: the other files read up to there, the too-deep one included (sorted). */
      readonly files: readonly string[];
    };

/** The message of a `refused` snippet's diagnostic. */
export function refusedMessage(file: string, why: string): string {
  return `${file} is nested too deeply to be read (${why}); the inputSchema expression reads it`;
}

/** One tool's schema job for {@link evaluateSchemas}. */
export interface SchemaRequest {
  /** Caller's key for the outcome map (e.g. the tool's source path). */
  readonly id: string;
  /** POSIX path relative to the project root, used in diagnostics. */
  readonly file: string;
  /** Absolute path of the tool entry file (bundled when the snippet needs the fallback). */
  readonly absPath: string;
  /** `undefined` when the definition has no `inputSchema` property. */
  readonly snippet?: SchemaSnippet;
  /** 1-based position of the `inputSchema` value, for diagnostics. */
  readonly line: number;
  readonly column: number;
}

export type SchemaOutcome =
  | {
      readonly ok: true;
      readonly schema: JsonSchema;
      readonly origin: SchemaOrigin;
      /** How the value was obtained: no schema, static translation, the vm fast path, or the bundled module. */
      readonly via: 'none' | 'static' | 'inline' | 'bundle';
      /**
       * For `via: 'bundle'`: absolute paths of what the bundle depends on (sorted;
       * schema/bundle-deps.ts): the files it read, and those that must stay missing.
       */
      readonly sources?: readonly string[];
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      /** As for a success, when the module was bundled: fixing one of these files may fix it. */
      readonly sources?: readonly string[];
      /** Where inside the schema the problem is (JSON Schema path), when known. */
      readonly path?: readonly (string | number)[];
    };

export interface SchemaStageOptions {
  /** Timeout for one inline snippet in the vm (default 1000 ms). */
  readonly inlineTimeoutMs?: number;
  /** Timeout for importing one bundled tool module in the child process (default 10 000 ms). */
  readonly fallbackTimeoutMs?: number;
  /** Module names aliased to zhin-gen's runtime while bundling (default: the recognised ones). */
  readonly runtimeModules?: readonly string[];
  /** Parent directory for the temporary bundle (default `os.tmpdir()`); removed afterwards. */
  readonly tempDir?: string;
}

/**
 * Result of converting one evaluated `inputSchema` value, location-free so it can come back from
 * the child process as JSON; the stage attaches file/line/column.
 */
export type ConvertResult =
  | { readonly ok: true; readonly schema: JsonSchema; readonly origin: 'zod' | 'json' }
  | {
      readonly ok: false;
      readonly code: SchemaErrorCode;
      readonly message: string;
      readonly hint?: string;
      readonly path?: readonly (string | number)[];
    };

export type SchemaErrorCode = 'ZG2020' | 'ZG2021' | 'ZG2022' | 'ZG2023';
