/**
 * The generated validators as the manifest sees them: one module per distinct JSON Schema, named
 * by its key (emit/validators.ts), in a folder beside the manifest, and one `loadValidator(key)`
 * with a literal `import()` per module (bundlers split on them, and the function compiles once
 * instead of one closure per tool). Tools with a Zod schema get none: their module's Standard
 * Schema validates. Rebuilt only when the set of keys changes; in watch mode a body-only edit
 * keeps it, and a schema edit changes one key.
 */
import type { EmitMemo } from './memo.js';
import type { SideModule } from './search-module.js';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { JsonSchema } from '../../runtime/contract/manifest.js';
import { compareStrings } from '../diagnostics.js';
import type { ToolModel } from '../model.js';
import { str } from './literal.js';
import { importSpecifier, type ImportExtension } from './paths.js';
import { validatorKey } from './validators.js';

/** Whether a tool's JSON Schema is validated by a generated validator (else: the module's Zod schema). */
export function hasGeneratedValidator(tool: Pick<ToolModel, 'schemaOrigin' | 'conditional'>): boolean {
  return !tool.conditional && tool.schemaOrigin !== 'zod';
}

/** The tool's validator key, from the schema's JSON text as the manifest line carries it. */
export function toolValidatorKey(tool: ToolModel, schemaText: string): string | undefined {
  return hasGeneratedValidator(tool) ? validatorKey(schemaText) : undefined;
}

/** `zhin-capabilities.gen.ts` → `zhin-capabilities.gen.validators` (POSIX, relative to the root). */
export function validatorsDirRel(outRel: string): string {
  const base = posix.basename(outRel).replace(/\.[cm]?ts$/, '');
  return posix.join(posix.dirname(outRel), `${base}.validators`);
}

/** Validator modules take the manifest's own extension, so whatever compiles it compiles them. */
export function validatorExtension(outRel: string): string {
  return /\.[cm]ts$/.exec(outRel)?.[0] ?? '.ts';
}

/** A generated validator's file name in the validators folder. */
export function validatorFileName(key: string, outRel: string): string {
  return `${key}${validatorExtension(outRel)}`;
}

export interface ValidatorTable {
  /** Distinct keys, sorted. */
  readonly keys: readonly string[];
  /** Each key's schema (equal keys, equal schema text). */
  readonly schemas: { get(key: string): JsonSchema | undefined };
  /** The switch cases of `loadValidator`. */
  readonly cases: string;
  readonly sha: string;
  /** Other generated modules of the folder (the search index: search-module.ts), written and removed alike. */
  readonly modules?: readonly SideModule[];
}

export interface ValidatorTableMemo {
  readonly options: string;
  readonly perTool: readonly (string | undefined)[];
  readonly table: ValidatorTable;
}

export interface ValidatorTableOptions {
  readonly root: string;
  readonly outRel: string;
  readonly importExtension: ImportExtension;
}

/** `keys[i]` is tool i's validator key (or undefined); reused while keys and paths hold. */
export function validatorTable(
  tools: readonly ToolModel[],
  perTool: readonly (string | undefined)[],
  options: ValidatorTableOptions,
  memos: EmitMemo,
): ValidatorTable {
  const optionsKey = `${options.root}\0${options.outRel}\0${options.importExtension}`;
  const memo = memos.validators;
  if (memo && memo.options === optionsKey && sameKeys(memo.perTool, perTool)) return memo.table;
  // The tool of each key: its schema is read only for a module written (a tool made from its
  // cache record reads it from the cache body then).
  const toolOf = new Map<string, ToolModel>();
  perTool.forEach((key, index) => {
    if (key !== undefined && !toolOf.has(key)) toolOf.set(key, tools[index]!);
  });
  const schemas = { get: (key: string): JsonSchema | undefined => toolOf.get(key)?.inputSchema };
  const keys = [...toolOf.keys()].sort(compareStrings);
  const dir = validatorsDirRel(options.outRel);
  const cases = keys
    .map((key) => {
      const spec = importSpecifier(
        options.root,
        options.outRel,
        posix.join(dir, validatorFileName(key, options.outRel)),
        options.importExtension,
      );
      return `    case ${str(key)}: return import(${str(spec)});`;
    })
    .join('\n');
  const text = cases === '' ? '' : `\n${cases}\n  `;
  const table: ValidatorTable = { keys, schemas, cases: text, sha: createHash('sha256').update(text).digest('hex') };
  memos.validators = { options: optionsKey, perTool, table };
  return table;
}

function sameKeys(a: readonly (string | undefined)[], b: readonly (string | undefined)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
