/**
 * Texts read outside any unit (AGENTS.md), kept across watch-mode runs: an event that names the
 * file forgets it, a run without events (or after a fresh walk) forgets them all.
 */
export class TextMemo {
  private readonly texts = new Map<string, string | undefined>();

  /** Forgets what this run's events name; every text when `dirty` is undefined or `all`. */
  forget(dirty: ReadonlySet<string> | undefined, all: boolean): void {
    if (!dirty || all) this.texts.clear();
    else for (const path of dirty) this.texts.delete(path);
  }

  /** A reader that reads each text once through `read`, then answers from the memo. */
  readerOf(read: (path: string) => string | undefined): (path: string) => string | undefined {
    return (path) => {
      if (!this.texts.has(path)) this.texts.set(path, read(path));
      return this.texts.get(path);
    };
  }
}
