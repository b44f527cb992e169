/**
 * Writes the generated validator modules beside the manifest (emit/validator-table.ts), and the
 * folder's other modules (the search index: emit/search-module.ts, rewritten when its stamp line
 * differs). A validator module
 * is named by its key, which covers the schema and the Ajv and emitter versions, so a file that
 * exists under its key is current: a run generates code only for keys it has no file for (a
 * changed or new schema), and a cold run over an unchanged tree only lists the folder. New files
 * are written before the manifest that imports them and files no manifest imports are removed
 * after it, so a reader never sees a manifest naming a missing validator. Only files this
 * compiler writes are ever removed: a key-shaped name and the generated-file mark.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_MARK } from '../emit/manifest.js';
import { writeNewAtomically } from './output.js';
import {
  validatorExtension,
  validatorFileName,
  validatorsDirRel,
  type ValidatorTable,
} from '../emit/validator-table.js';
import { emitValidatorModule } from '../emit/validators.js';
import type { SideModule } from '../emit/search-module.js';

/**
 * What a compiler knows is in a validators folder: file names, and the folder's mtime then. The
 * compiler owns one (it dies with the compiler); without it the folder is listed each time.
 */
export type KnownFolders = Map<string, { names: Set<string>; mtimeMs: number }>;

// Validators by key, and the search index (emit/search-module.ts).
const KEY_FILE = /^(?:[0-9a-f]{16}|search)\.[cm]?ts$/;

/** Every module the table names: its validators and its other modules. */
function moduleNames(table: ValidatorTable, outRel: string): string[] {
  return [...table.keys, ...(table.modules ?? []).map((module) => module.name)].map((key) =>
    validatorFileName(key, outRel),
  );
}

/** The first bytes of a file ('' when it cannot be read). */
function head(file: string, bytes: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A side module's file is current when it exists and its second line is the module's stamp. */
function isCurrent(dir: string, name: string, module: SideModule, names: Set<string>): boolean {
  if (!names.has(name)) return false;
  const lines = head(join(dir, name), 512).split('\n');
  return lines[0]?.startsWith(GENERATED_MARK) === true && lines[1] === module.stamp;
}

function mtimeOf(dir: string): number | undefined {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The folder's file names: from memory while the folder's mtime is what this process left it
 * at (watch mode: no listing per edit), listed again otherwise (a fresh process, a file removed
 * by hand).
 */
function listing(dir: string, known: KnownFolders): Set<string> {
  const mtimeMs = mtimeOf(dir);
  const memo = known.get(dir);
  if (memo && mtimeMs !== undefined && memo.mtimeMs === mtimeMs) return memo.names;
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    names = new Set();
  }
  known.set(dir, { names, mtimeMs: mtimeMs ?? -1 });
  return names;
}

function remember(dir: string, names: Set<string>, known: KnownFolders): void {
  known.set(dir, { names, mtimeMs: mtimeOf(dir) ?? -1 });
}

export function validatorsDir(root: string, outRel: string): string {
  return join(root, validatorsDirRel(outRel));
}

/** The folder's stamp (mtime, or `none`): any file added or removed in it changes it. */
export function validatorsStamp(root: string, outRel: string): string {
  return String(mtimeOf(validatorsDir(root, outRel)) ?? 'none');
}

/** Writes the modules the table names (validators, the search index) that are not on disk; returns how many it wrote. */
export function writeValidators(
  root: string,
  outRel: string,
  table: ValidatorTable,
  known: KnownFolders = new Map(),
): number {
  const modules = table.modules ?? [];
  if (table.keys.length === 0 && modules.length === 0) return 0;
  const dir = validatorsDir(root, outRel);
  const names = listing(dir, known);
  const typescript = /\.[cm]?ts$/.test(validatorExtension(outRel));
  let written = 0;
  const write = (name: string, text: () => string) => {
    if (written === 0) mkdirSync(dir, { recursive: true });
    // Temp file and rename: a new name, or a side module replaced in one step.
    writeNewAtomically(join(dir, name), text());
    names.add(name);
    written++;
  };
  for (const key of table.keys) {
    const name = validatorFileName(key, outRel);
    if (!names.has(name)) write(name, () => emitValidatorModule(table.schemas.get(key)!, { typescript }));
  }
  for (const module of modules) {
    const name = validatorFileName(module.name, outRel);
    if (!isCurrent(dir, name, module, names)) write(name, module.text);
  }
  if (written > 0) remember(dir, names, known);
  return written;
}

/** Whether a file starts with the generated-file mark (never remove anything else). */
function isGenerated(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(GENERATED_MARK.length);
    readSync(fd, head, 0, head.length, 0);
    return head.toString('utf8') === GENERATED_MARK;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes the generated modules the table no longer names (after the manifest was written). */
export function removeStaleValidators(
  root: string,
  outRel: string,
  table: ValidatorTable,
  known: KnownFolders = new Map(),
): number {
  const dir = validatorsDir(root, outRel);
  if (!known.has(dir) && mtimeOf(dir) === undefined) return 0;
  const names = listing(dir, known);
  const wanted = new Set(moduleNames(table, outRel));
  let removed = 0;
  for (const name of [...names]) {
    if (wanted.has(name) || !KEY_FILE.test(name)) continue;
    const file = join(dir, name);
    if (!isGenerated(file)) continue;
    rmSync(file, { force: true });
    names.delete(name);
    removed++;
  }
  if (removed > 0) remember(dir, names, known);
  return removed;
}

/**
 * Keys whose module is not on disk, and side modules whose file is not current (for `check`: a
 * manifest is only current with its validators and its search index).
 */
export function missingValidators(
  root: string,
  outRel: string,
  table: ValidatorTable,
  known: KnownFolders = new Map(),
): readonly string[] {
  const modules = table.modules ?? [];
  if (table.keys.length === 0 && modules.length === 0) return [];
  const dir = validatorsDir(root, outRel);
  const names = listing(dir, known);
  return [
    ...table.keys.filter((key) => !names.has(validatorFileName(key, outRel))),
    // A side module left from another catalog (a merge, a hand edit) is stale like a missing one.
    ...modules
      .filter((module) => !isCurrent(dir, validatorFileName(module.name, outRel), module, names))
      .map((module) => module.name),
  ];
}
