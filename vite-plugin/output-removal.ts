/**
 * The output's removal under the Vite dev server. Vite's watcher leaves the output to the plugin
 * (./output-events.ts), so an `rm` or a `git clean` of the manifest or its generated folder was
 * seen by nothing: the dev server went on serving an empty manifest until an unrelated edit. One
 * `fs.watch` of the folder that holds them (not recursive: what a run writes inside the generated
 * folder is no event here) reports either name; the compiler decides whether it is missing where
 * the last run left it (`Compiler.outputRemoved`), so a run's own writes (a temp file renamed over
 * the manifest) and its own removal of an emptied folder start nothing. `zhin-gen watch` and the
 * side watcher see the same through their tree watcher (compiler/watch/tree.ts `isOutput`).
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class OutputRemoval {
  private watcher?: FSWatcher;
  private dir?: string;

  constructor(private readonly onName: (abs: string) => void) {}

  /** Watches the folder of this output place (again when a configuration change moved it). */
  follow(place: { readonly outFile: string; readonly folder: string } | undefined): void {
    const dir = place && dirname(place.outFile);
    if (dir === this.dir && this.watcher) return;
    this.close();
    if (!place || !dir) return;
    this.dir = dir;
    const names = new Set([basename(place.outFile), basename(place.folder)]);
    try {
      this.watcher = watch(dir, { persistent: false }, (_type, name) => {
        if (name !== null && names.has(String(name))) this.onName(join(dir, String(name)));
      });
      // The folder itself removed (`out: 'src/gen/…'`, `rm -r src/gen`): followed again after the next run.
      this.watcher.on('error', () => this.close());
    } catch {
      this.close();
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.dir = undefined;
  }
}
