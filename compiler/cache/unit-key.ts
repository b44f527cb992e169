/**
 * The unit cache key of a capability unit (`kind:dir`) and its file list, built once per unit
 * object: watch-mode runs reuse the layout's units, and every stage looks units up on every run.
 */
import type { CapabilityUnit } from '../scan/layout.js';

const keys = new WeakMap<CapabilityUnit, string>();

export function unitKey(unit: CapabilityUnit): string {
  let key = keys.get(unit);
  if (key === undefined) {
    key = `${unit.kind}:${unit.dir}`;
    keys.set(unit, key);
  }
  return key;
}

const filesOfUnit = new WeakMap<CapabilityUnit, readonly string[]>();

/**
 * A unit's files, entry first; memoised per unit object (watch mode reuses the layout's units).
 * An agent's subfolders follow as `name/`: its result depends on its folder's entries too (an
 * unexpected one is reported, even an empty folder: validate/agent-files.ts), and the cache
 * compares this list on every lookup, so a folder added or removed there parses it again.
 */
export function unitFiles(unit: CapabilityUnit): readonly string[] {
  let files = filesOfUnit.get(unit);
  if (!files) {
    const list = unit.entry && !unit.files.includes(unit.entry) ? [unit.entry, ...unit.files] : [...unit.files];
    if (unit.kind === 'agent')
      for (const entry of unit.entries) if (entry.isDirectory) list.push(`${unit.dir}/${entry.name}/`);
    files = list;
    filesOfUnit.set(unit, files);
  }
  return files;
}

const contentFilesOfUnit = new WeakMap<CapabilityUnit, readonly string[]>();

/** {@link unitFiles} without the folders: the files whose bytes a unit's parse may read. */
function contentFiles(unit: CapabilityUnit): readonly string[] {
  let files = contentFilesOfUnit.get(unit);
  if (!files) {
    const all = unitFiles(unit);
    files = all.some((file) => file.endsWith('/')) ? all.filter((file) => !file.endsWith('/')) : all;
    contentFilesOfUnit.set(unit, files);
  }
  return files;
}

/** The kinds whose parse reads the entry file alone (parse/units.ts `parseCodeUnit`). */
const ENTRY_ONLY: ReadonlySet<CapabilityUnit['kind']> = new Set(['tool', 'prompt-section', 'hook']);

/**
 * The files of a unit whose content its result is made from, besides the dependencies the parse
 * reports (schema fragments): a code unit's entry alone; every file of any other unit. A tool's
 * helper modules (`format.ts` beside `index.ts`) are names in its folder, not inputs: they are
 * not read and hashed for the cache, and an edit of one re-parses nothing. Their names still
 * count (the unit's file list is compared on every lookup), so adding or removing one does.
 */
export function stampedFilesOf(unit: CapabilityUnit): readonly string[] {
  if (!ENTRY_ONLY.has(unit.kind)) return contentFiles(unit);
  return unit.entry ? [unit.entry] : [];
}

/** The files of a unit that {@link stampedFilesOf} leaves out: its helper modules (none for other kinds). */
export function helperFilesOf(unit: CapabilityUnit): readonly string[] {
  if (!ENTRY_ONLY.has(unit.kind)) return [];
  return unit.files.filter((file) => file !== unit.entry);
}
