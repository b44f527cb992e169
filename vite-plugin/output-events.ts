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
 * - `change` for each generated module some environment has a transform of (a client loaded
 *   it) whose stamp moved. A changed file no client loaded needs no event: nothing of it is
 *   cached. (A module only named by a dynamic `import()`, such as `search.ts` before the first
 *   `discover`, has a node but no transform: its event used to re-serve `items.ts`, its importer.)
 *
 * A module's stamp is the stamp line the compiler last wrote or verified for it, kept in memory
 * (`Compiler.outputStamps`): no stat per served module after each run (~440 shards at 20,000
 * tools). A file the compiler has no stamp for (the main module; a folder it has not written in
 * this process) is stat'ed.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EnvironmentModuleNode, ViteDevServer } from 'vite';

/** A file's identity on disk: a write (temp file renamed over it) changes at least one part. */
type Stamp = string;

const MISSING: Stamp = '-';

function statStamp(file: string): Stamp {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : MISSING;
}

/** The compiler's stamps of the folder's modules by file name (`Compiler.outputStamps`). */
export type KnownStamps = () => ReadonlyMap<string, { readonly stamp: string }> | undefined;

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

/** Whether a client loaded the module: a transform is kept, or it was invalidated since (one is owed). */
function loaded(node: EnvironmentModuleNode): boolean {
  return node.transformResult !== null || node.lastHMRTimestamp > 0 || node.lastInvalidationTimestamp > 0;
}

function existsInListing(file: string, files: Set<string> | undefined): boolean {
  return files === undefined || files.has(file);
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
    private readonly known: KnownStamps = () => undefined,
  ) {}

  /**
   * A file's stamp: the compiler's stamp line (`k:`) when it has one, else the file's stat.
   * `like` is the file's stamp from the run's start: the end compares the same kind, so a file
   * first stat'ed and then written by the run is compared by stat again.
   */
  private stampOf(file: string, place: OutputPlace | undefined, known: ReturnType<KnownStamps>, like?: Stamp): Stamp {
    if (known && place && (like === undefined || like.startsWith('k:')) && dirname(file) === place.folder) {
      const stamp = known.get(basename(file))?.stamp;
      if (stamp !== undefined && existsInListing(file, this.lastListing)) return `k:${stamp}`;
    }
    return statStamp(file);
  }

  /** The listing of the run in flight's end (or start), to tell a removed file without a stat. */
  private lastListing?: Set<string>;

  /**
   * Generated modules some environment has a transform of, kept or soft-invalidated (Vite's
   * normalized file paths). The graph of a large bot holds every tool module its shards import
   * lazily (20,000 and more): a substring test on the output's base name rejects those before
   * the exact check.
   */
  private served(): Set<string> {
    const files = new Set<string>();
    const place = this.place();
    if (!place) return files;
    const base = basename(place.outFile).replace(/\.[^.]*$/, '');
    for (const environment of Object.values(this.server.environments)) {
      for (const [file, nodes] of environment.moduleGraph.fileToModulesMap)
        if (file.includes(base) && this.isOutput(file) && [...nodes].some(loaded)) files.add(file);
    }
    return files;
  }

  /** A run starts: what is on disk, and the stamps of modules a client loaded since, before anything is written. */
  runStarts(): void {
    const place = this.place();
    this.before = place && { place, files: listing(place) };
    this.lastListing = this.before?.files;
    const known = this.known();
    for (const file of this.served())
      if (!this.stamps.has(file)) this.stamps.set(file, this.stampOf(file, place, known));
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
    const place = this.place();
    if (before) {
      const after = listing(before.place);
      for (const file of after) if (!before.files.has(file)) added.push(file);
      for (const file of before.files) if (!after.has(file)) removed.push(file);
      this.lastListing = after;
    } else this.lastListing = place && listing(place);
    const fresh = new Set(added);
    const next = new Map<string, Stamp>();
    const changed: string[] = [];
    const known = this.known();
    for (const file of this.served()) {
      const now = this.stampOf(file, place, known, this.stamps.get(file));
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
