/**
 * The generated modules' changes, reported to Vite in place of its file watcher.
 *
 * Vite's watcher ignores the output (the main module, its temp files and the generated folder:
 * `ZhinGenState.isOutput`). Left to it, every write of a run made chokidar list the generated
 * folder again (hundreds of shards, each stat'ed, at 20,000 tools), once per file written, and
 * then handed Vite one event per file some time after the run. The plugin knows when a run
 * starts and ends: it emits the watcher's own events right after the run, so Vite (its module
 * graphs, its resolver's cache, other plugins' `watchChange`) sees what it would have seen from
 * chokidar, one transform per changed module:
 * - `add` / `unlink` for each output file that appeared or went away during the run (the main
 *   module and the folder's listing, compared by name: no stat);
 * - `change` for each generated module some environment's module graph holds (a client loaded
 *   it) whose stamp moved. A changed file no graph holds needs no event: no client has it.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ViteDevServer } from 'vite';

/** A file's identity on disk: a write (temp file renamed over it) changes at least one part. */
type Stamp = string;

const MISSING: Stamp = '-';

function stampOf(file: string): Stamp {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : MISSING;
}

/** Where the output is: the main module and the generated folder beside it. */
export interface OutputPlace {
  readonly outFile: string;
  readonly folder: string;
}

/** The output files on disk now (absolute paths). */
function listing(place: OutputPlace): Set<string> {
  const files = new Set<string>();
  if (statSync(place.outFile, { throwIfNoEntry: false })) files.add(place.outFile);
  let names: string[] = [];
  try {
    names = readdirSync(place.folder);
  } catch {
    names = [];
  }
  for (const name of names) files.add(join(place.folder, name));
  return files;
}

export class OutputEvents {
  /** Stamps of the generated modules in some module graph, as of the last run's start or end. */
  private stamps = new Map<string, Stamp>();
  /** The output files when the run in flight started (undefined: no run in flight). */
  private before?: { readonly place: OutputPlace; readonly files: Set<string> };

  constructor(
    private readonly server: ViteDevServer,
    /** Where the output is (undefined before the configuration is known). */
    private readonly place: () => OutputPlace | undefined,
    private readonly isOutput: (file: string) => boolean,
  ) {}

  /**
   * Generated modules some environment's module graph holds (Vite's normalized file paths). The
   * graph of a large bot holds every tool module its shards import lazily (20,000 and more): a
   * substring test on the output's base name rejects those before the exact check.
   */
  private served(): Set<string> {
    const files = new Set<string>();
    const place = this.place();
    if (!place) return files;
    const base = basename(place.outFile).replace(/\.[^.]*$/, '');
    for (const environment of Object.values(this.server.environments)) {
      for (const file of environment.moduleGraph.fileToModulesMap.keys())
        if (file.includes(base) && this.isOutput(file)) files.add(file);
    }
    return files;
  }

  /** A run starts: what is on disk, and the stamps of modules a client loaded since, before anything is written. */
  runStarts(): void {
    const place = this.place();
    this.before = place && { place, files: listing(place) };
    for (const file of this.served()) if (!this.stamps.has(file)) this.stamps.set(file, stampOf(file));
  }

  /**
   * A run ended: the watcher's events for what it wrote. A module first loaded while the run
   * was in flight has no stamp from before it and gets a `change` too (one extra transform at
   * worst, never a stale module).
   */
  runEnded(): void {
    const before = this.before;
    this.before = undefined;
    const added: string[] = [];
    const removed: string[] = [];
    if (before) {
      const after = listing(before.place);
      for (const file of after) if (!before.files.has(file)) added.push(file);
      for (const file of before.files) if (!after.has(file)) removed.push(file);
    }
    const fresh = new Set(added);
    const next = new Map<string, Stamp>();
    const changed: string[] = [];
    for (const file of this.served()) {
      const now = stampOf(file);
      next.set(file, now);
      if (this.stamps.get(file) === now || fresh.has(file)) continue;
      if (now === MISSING) {
        if (!removed.includes(file)) removed.push(file);
      } else changed.push(file);
    }
    this.stamps = next;
    // As chokidar would: the run writes before it removes, and `all` follows each event.
    this.emit('add', added);
    this.emit('change', changed);
    this.emit('unlink', removed);
  }

  private emit(type: 'add' | 'change' | 'unlink', files: readonly string[]): void {
    const watcher = this.server.watcher;
    for (const file of files) {
      watcher.emit(type, file);
      watcher.emit('all', type, file);
    }
  }
}
