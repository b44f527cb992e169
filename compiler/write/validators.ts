/**
 * Writes the generated modules of the folder beside the manifest: the validators
 * (emit/validator-table.ts), the search index (emit/search-module.ts) and a large bot's tool
 * shards and types (emit/shards.ts). A validator module is named by its key, which covers the
 * schema and the Ajv and emitter versions, so a file under its key whose seal holds is current:
 * a run generates code only for keys it has no intact file for. The other modules are current
 * when their stamp line and seal are what this run would write. Every module ends with a seal (a
 * digest of the bytes above it), so an edit in place is seen by `generate` (which rewrites it)
 * and `check` (which reports it). New files are written before the manifest that imports them
 * and files no manifest imports are removed after it, so a reader never sees a manifest naming a
 * missing module. Only files this compiler writes are ever removed: a key-shaped name and the
 * generated-file mark; and the folder itself once their removal left it empty.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_MARK } from '../emit/mark.js';
import { writeNewAtomically } from './output.js';
import { sweepStaleTemps } from './temp-files.js';
import { mtimeOf, validatorsDir } from './folder-stamp.js';
import { sealed, sealProblem } from './seal.js';
import { type FileStat, sameFile, statNow } from '../util/file-stat.js';
import { validatorExtension, validatorFileName, type ValidatorTable } from '../emit/validator-table.js';
import { emitValidatorModule } from '../emit/validators.js';
import type { SideModule } from '../emit/search-module.js';

/**
 * What a compiler knows is in a validators folder: file names, and the folder's mtime then. The
 * compiler owns one (it dies with the compiler); without it the folder is listed each time.
 */
export type KnownFolders = Map<
  string,
  {
    names: Set<string>;
    mtimeMs: number;
    /**
     * Modules this process wrote or verified, or a predecessor did (seedVerified): their stamp, the
     * file's stamp then, and when that was taken (ms since the epoch, before the stat).
     */
    verified?: Map<string, VerifiedModule>;
  }
>;

/** A module of the folder as last verified (a validator's stamp is ''), with its file's stat then. */
export interface VerifiedModule extends FileStat {
  readonly stamp: string;
  readonly at: number;
  /** Handed over by a predecessor (seedVerified): trusted only while the file's stamp is this one. */
  readonly seeded?: boolean;
}

// Validators by key, the search index (emit/search-module.ts), the tool table's shards, types (emit/shards.ts)
// and items (emit/items-module.ts): shards by trie path (emit/shard-layout.ts), and by the earlier
// `tools-<i>-of-<n>` so an upgrade removes those.
const KEY_FILE = /^(?:[0-9a-f]{16}|search|types|items|tools-[01]{1,10}|tools-\d+-of-\d+)\.[cm]?ts$/;

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

/** What `verified` records for a validator (its key is its name: no stamp line). */
const VALIDATOR: SideModule = { name: '', stamp: '', text: () => '' };

/**
 * Whether a validator's file is intact. Verified once per process: a validator's bytes only
 * change by hand (the key names the code), so a watch session does not stat thousands of them
 * per edit; a fresh `generate` or `check` verifies every one again.
 */
function validatorIntact(dir: string, name: string, known: KnownFolders): boolean {
  const seen = known.get(dir)?.verified?.get(name);
  if (seen?.stamp === '' && seen.seeded !== true) return true;
  const file = join(dir, name);
  const at = Date.now();
  const now = statNow(file);
  if (now === undefined) return false;
  if (seen?.stamp === '' && sameFile(seen, now)) {
    noteVerified(dir, name, '', now, seen.at, known);
    return true;
  }
  try {
    if (sealProblem(readFileSync(file)) !== undefined) return false;
  } catch {
    return false;
  }
  noteVerified(dir, name, '', now, at, known);
  return true;
}

/**
 * A side module's file is current when it exists, its second line is the module's stamp and its
 * seal holds (an edit in place anywhere in it breaks the seal). What this process wrote or
 * verified is trusted while the file's stamp on disk is the same (watch mode: one stat per edit).
 */
function isCurrent(dir: string, name: string, module: SideModule, names: Set<string>, known: KnownFolders): boolean {
  if (!names.has(name)) return false;
  const file = join(dir, name);
  const at = Date.now();
  const now = statNow(file);
  if (now === undefined) return false;
  const verified = known.get(dir)?.verified?.get(name);
  if (verified && verified.stamp === module.stamp && sameFile(verified, now)) return true;
  const lines = head(file, 512).split('\n');
  if (lines[0]?.startsWith(GENERATED_MARK) !== true || lines[1] !== module.stamp) return false;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return false;
  }
  if (sealProblem(bytes) !== undefined) return false;
  noteVerified(dir, name, module.stamp, now, at, known);
  return true;
}

function noteVerified(
  dir: string,
  name: string,
  stamp: string,
  now: FileStat | undefined,
  at: number,
  known: KnownFolders,
): void {
  const entry = known.get(dir);
  if (!entry || now === undefined) return;
  entry.verified ??= new Map();
  entry.verified.set(name, { stamp, ...now, at });
}

/**
 * The modules of a folder as this compiler last verified or wrote them, for a later process to
 * seed from: only those still in the folder as this compiler left it (a removed validator's entry
 * would otherwise be handed on for ever).
 */
export function verifiedModules(known: KnownFolders, dir: string): ReadonlyMap<string, VerifiedModule> {
  const folder = known.get(dir);
  if (!folder?.verified) return new Map();
  return new Map([...folder.verified].filter(([name]) => folder.names.has(name)));
}

/**
 * A fresh compiler starts from what a predecessor verified (cache/emit-record.ts): a module whose
 * file still has the recorded mtime, size and inode (a side module: under the stamp this run would
 * write) is current without its bytes being read and hashed again (29 MB at 20,000 tools). Only
 * settled stamps are handed over (cache/racy.ts), and only before this compiler knows the
 * folder: what it saw itself wins. A seeded validator is stat'ed once before it is trusted for
 * the process's life as one this process verified.
 */
export function seedVerified(known: KnownFolders, dir: string, modules: ReadonlyMap<string, VerifiedModule>): void {
  if (known.has(dir) || modules.size === 0) return;
  const verified = new Map([...modules].map(([name, module]) => [name, { ...module, seeded: true }] as const));
  // No names and an mtime no folder has: the first look lists the folder, keeping these.
  known.set(dir, { names: new Set(), mtimeMs: -1, verified });
}

/**
 * Whether the generated folder `dir` holds modules as this compiler last left it: true when it
 * never looked (a run that reused the output), false when the last run removed every module
 * (and with them the folder: removeStaleValidators).
 */
export function folderExpected(known: KnownFolders, dir: string): boolean {
  const folder = known.get(dir);
  return folder === undefined || folder.names.size > 0;
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
  known.set(dir, { names, mtimeMs: mtimeMs ?? -1, verified: memo?.verified });
  return names;
}

function remember(dir: string, names: Set<string>, known: KnownFolders): void {
  known.set(dir, { names, mtimeMs: mtimeOf(dir) ?? -1, verified: known.get(dir)?.verified });
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
  // The stamp of each file written, from the writer's descriptor, and when the write began.
  const replaced: [string, SideModule, FileStat, number][] = [];
  const write = (name: string, module: SideModule, text: () => string): void => {
    if (written === 0) mkdirSync(dir, { recursive: true });
    const at = Date.now();
    // Temp file and rename: a new name, or a side module replaced in one step.
    replaced.push([name, module, writeNewAtomically(join(dir, name), sealed(text())), at]);
    names.add(name);
    written++;
  };
  for (const key of table.keys) {
    const name = validatorFileName(key, outRel);
    // Named by its key, a validator's file is current when its seal holds (verified once per file stamp).
    if (names.has(name) && validatorIntact(dir, name, known)) continue;
    write(name, VALIDATOR, () => emitValidatorModule(table.schemas.get(key)!, { typescript }));
  }
  // The modules this process last saw under another stamp first (a watch-mode edit's shard and
  // search index: the edited tool reaches the disk before the other modules' stat checks), then
  // the rest; every module is checked the same way, only the order differs (any order of the
  // folder's modules is fine for a reader: the main module that imports them comes after).
  // A module this process never saw is taken as changed without reading its stamp: a shard's
  // stamp is a digest of its text (emit/shards.ts), which a cold run would otherwise build once
  // for the stamp and again to write it.
  const verified = known.get(dir)?.verified;
  const likelyChanged = (module: SideModule): boolean => {
    const seen = verified?.get(validatorFileName(module.name, outRel));
    return seen === undefined || seen.stamp !== module.stamp;
  };
  for (const module of [...modules.filter(likelyChanged), ...modules.filter((m) => !likelyChanged(m))]) {
    const name = validatorFileName(module.name, outRel);
    if (!isCurrent(dir, name, module, names, known)) write(name, module, module.text);
  }
  if (written > 0) remember(dir, names, known);
  for (const [name, module, stamp, at] of replaced) noteVerified(dir, name, module.stamp, stamp, at, known);
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
  // A killed run's temp files of the folder's modules (write/temp-files.ts) go first: one would
  // keep an emptied folder, and they show in `git status`.
  for (const name of sweepStaleTemps(dir, (target) => KEY_FILE.test(target), [...names])) names.delete(name);
  for (const name of [...names]) {
    if (wanted.has(name) || !KEY_FILE.test(name)) continue;
    const file = join(dir, name);
    if (!isGenerated(file)) continue;
    rmSync(file, { force: true });
    names.delete(name);
    // Not one this compiler left any more: its removal is no damage (Compiler.outputRemoved).
    known.get(dir)?.verified?.delete(name);
    removed++;
  }
  // A folder left empty goes too, as a fresh run of this tree writes none (only if empty: a
  // temp file of a write in flight, or a file of the user's, keeps it).
  if (removed > 0 && names.size === 0) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty after all.
    }
  }
  if (removed > 0) remember(dir, names, known);
  return removed;
}

/**
 * Keys whose module is not on disk or whose seal is broken, and side modules whose file is not
 * current (for `check`: a manifest is only current with its validators, shards, types and search
 * index, byte for byte).
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
    ...table.keys.filter((key) => {
      const name = validatorFileName(key, outRel);
      return !names.has(name) || !validatorIntact(dir, name, known);
    }),
    // A side module left from another catalog (a merge, a hand edit) is stale like a missing one.
    ...modules
      .filter((module) => !isCurrent(dir, validatorFileName(module.name, outRel), module, names, known))
      .map((module) => module.name),
  ];
}
