/**
 * Watch mode of Rollup, Rolldown and `vite build --watch` after a build that failed at its start.
 * The bundler watches only the files its graph loaded, and a build that failed in `buildStart`
 * loaded none: no edit, not even of the entry, started another build, and the user had to restart
 * the watch. So the failed build asks the bundler to watch the files its errors are at and the
 * manifest, and the side watcher's first clean run after it (side-watcher.ts sees the whole
 * tree) moves the manifest's mtime when that run did not rewrite it (the fix gave back the bytes
 * on disk): either way the bundler sees the manifest change and builds again.
 */
import { existsSync, utimesSync } from 'node:fs';
import type { CompileResult } from '../compiler/index.js';
import { absoluteFile, errorsOf } from './diagnostics.js';

export interface WatchFiles {
  addWatchFile?(id: string): void;
}

export class FailedStart {
  private failed = false;

  /** A build of the bundler's watch mode failed at its start with `result`'s errors. */
  failedWith(ctx: WatchFiles, root: string, outFile: string, result: CompileResult): void {
    this.failed = true;
    if (typeof ctx.addWatchFile !== 'function') return;
    for (const file of new Set(errorsOf(result).map((d) => absoluteFile(root, d)))) ctx.addWatchFile(file);
    ctx.addWatchFile(outFile);
  }

  /** A build got past its start: the bundler watches its graph again. */
  started(): void {
    this.failed = false;
  }

  /** A run of the side watcher: the first clean one after a failed start wakes the bundler. */
  sideRun(result: CompileResult, outFile: string): void {
    if (!this.failed || result.errors > 0) return;
    this.failed = false;
    if (result.written || !existsSync(outFile)) return;
    const now = new Date();
    try {
      utimesSync(outFile, now, now);
    } catch {
      // Removed meanwhile: its next write is the change the bundler sees.
    }
  }
}
