/**
 * The validators the last emitted manifest imports (write/validators.ts), and what the compiler
 * answers from them: which of those modules are missing on disk (`check`), and the generated
 * folder's modules as last written or verified (the dev server's output events).
 */
import { validatorFileName, validatorsDirRel, type ValidatorTable } from '../emit/validator-table.js';
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { sameFile, statNow } from '../util/file-stat.js';
import { validatorsDir } from './folder-stamp.js';
import { type KnownFolders, missingValidators } from './validators.js';

export class LastEmitted {
  private last?: { readonly outRel: string; readonly table: ValidatorTable };

  constructor(private readonly root: string) {}

  /** A run emitted a manifest importing these validators. */
  record(outRel: string, table: ValidatorTable): void {
    this.last = { outRel, table };
  }

  /**
   * POSIX paths (relative to the root) of the generated validator modules the last emitted
   * manifest imports that are not on disk. Empty when no run emitted (the last one vouched for
   * the output without emitting: the folder was as it left it).
   */
  missing(folders: KnownFolders): readonly string[] {
    const last = this.last;
    if (!last) return [];
    return missingValidators(this.root, last.outRel, last.table, folders).map(
      (key) => `${validatorsDirRel(last.outRel)}/${validatorFileName(key, last.outRel)}`,
    );
  }

  /**
   * Whether `abs`, a module of the generated folder, may not be what the last run left there
   * (removed, edited in place, checked out from a branch): a watcher's event for it then starts
   * a run, which checks the folder and writes it again. A module this compiler wrote or verified
   * is compared by its stamp (its own writes are no damage); a folder it has not looked at yet
   * (the first run reused the output) is checked by that run; any other file there is not its.
   */
  damaged(abs: string, folders: KnownFolders): boolean {
    const folder = folders.get(dirname(abs));
    if (folder === undefined) return true;
    const modules = folder.verified;
    const verified = modules?.get(basename(abs));
    // Not one this process wrote or checked: someone else's file, unless the folder is only known
    // from what a predecessor handed over (seedVerified: never listed here, mtime -1), which leaves
    // out the modules it had just written (their stamps were too new to trust). A folder a run
    // removed itself has mtime -1 too, and is gone.
    if (verified === undefined) return folder.mtimeMs === -1 && existsSync(dirname(abs));
    const now = statNow(abs);
    if (now !== undefined && sameFile(verified, now)) return false;
    // Checked again by the run this starts (a validator is otherwise trusted for the process's
    // life without a stat), as one a predecessor handed over is. The entry stays: the question is
    // asked again while the event waits, and the answer must not change until the run rewrote it.
    if (verified.seeded !== true) modules!.set(basename(abs), { ...verified, seeded: true });
    return true;
  }

  /** The generated folder's modules as last written or verified (name → stamp line). */
  stamps(folders: KnownFolders): ReadonlyMap<string, { readonly stamp: string }> | undefined {
    const last = this.last;
    return last && folders.get(validatorsDir(this.root, last.outRel))?.verified;
  }
}
