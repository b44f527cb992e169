/**
 * The output's removal under the Vite dev server. Vite's watcher leaves the output to the plugin
 * (./output-events.ts), so an `rm` or a `git clean` of the manifest or its generated folder was
 * seen by nothing: the dev server went on serving an empty manifest until an unrelated edit. One
 * `fs.watch` of the folder that holds them (not recursive) reports either name, and one of the
 * generated folder reports its modules (one removed, edited in place, checked out from another
 * branch); the compiler decides whether a path is missing or not what the last run left
 * (`Compiler.outputRemoved`), so a run's own writes (a temp file renamed over the manifest or a
 * module) and its own removal of an emptied folder start nothing. `zhin-gen watch` and the side
 * watcher see the same through their tree watcher (compiler/watch/tree.ts `isOutput`).
 */
import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A folder's inode (undefined: missing): a folder removed and made again is another one. */
function inodeOf(dir: string): number | undefined {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.ino;
  } catch {
    return undefined;
  }
}

export class OutputRemoval {
  private watcher?: FSWatcher;
  private dir?: string;
  /** The watched folder's inode (another folder at the path is watched afresh). */
  private ino?: number;
  /** The generated folder's watch, its path and inode. */
  private modules?: { readonly watcher: FSWatcher; readonly dir: string; readonly ino: number };

  constructor(private readonly onName: (abs: string) => void) {}

  /** Watches the folder of this output place (again when a configuration change moved it). */
  follow(place: { readonly outFile: string; readonly folder: string } | undefined): void {
    this.followModules(place?.folder);
    const dir = place && dirname(place.outFile);
    const ino = dir === undefined ? undefined : inodeOf(dir);
    if (dir === this.dir && this.watcher && ino === this.ino) return;
    this.closeOutDir();
    if (!place || !dir || ino === undefined) return;
    this.dir = dir;
    this.ino = ino;
    const names = new Set([basename(place.outFile), basename(place.folder)]);
    try {
      const self = basename(dir);
      this.watcher = watch(dir, { persistent: false }, (_type, name) => {
        if (name === null) return;
        const entry = String(name);
        if (names.has(entry)) this.onName(join(dir, entry));
        // The folder itself removed (`out: 'src/gen/…'`, `rm -r src/gen`): Linux reports its
        // own name, then nothing more and no error, and the folder the run makes again may get
        // its inode number back. Closed here, it is watched afresh by `follow` after that run.
        else if (entry === self) this.closeOutDir();
      });
      this.watcher.on('error', () => this.closeOutDir());
    } catch {
      this.closeOutDir();
    }
  }

  /** Watches the generated folder (again when it was made anew); its events name its modules. */
  private followModules(folder: string | undefined): void {
    const ino = folder === undefined ? undefined : inodeOf(folder);
    if (this.modules && this.modules.dir === folder && this.modules.ino === ino) return;
    this.modules?.watcher.close();
    this.modules = undefined;
    if (folder === undefined || ino === undefined) return;
    try {
      const watcher = watch(folder, { persistent: false }, (_type, name) => {
        if (name === null) return;
        // The folder itself removed: as above, the one made again may get its inode back, so
        // this watch ends here and `follow` attaches one to the new folder after the run.
        if (String(name) === basename(folder)) {
          watcher.close();
          if (this.modules?.watcher === watcher) this.modules = undefined;
        } else this.onName(join(folder, String(name)));
      });
      watcher.on('error', () => {
        watcher.close();
        if (this.modules?.watcher === watcher) this.modules = undefined;
      });
      this.modules = { watcher, dir: folder, ino };
    } catch {
      // Gone between the stat and the watch: the run that writes it again follows it.
    }
  }

  close(): void {
    this.modules?.watcher.close();
    this.modules = undefined;
    this.closeOutDir();
  }

  /** The watch of the folder that holds the manifest (the generated folder's watch is its own). */
  private closeOutDir(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.dir = undefined;
    this.ino = undefined;
  }
}
