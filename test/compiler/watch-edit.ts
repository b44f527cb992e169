/**
 * A watch-mode edit as the tests make it: write (or, with no text, remove the tool's folder),
 * tell the compiler what changed as the watcher would, and run; the run must be clean.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { Compiler } from '../../compiler/index.js';
import { writeTree } from '../helpers.js';

export type WatchEdit = (type: 'add' | 'change' | 'unlink', rel: string, text?: string) => Promise<void>;

export function watchEdit(compiler: Compiler, root: string): WatchEdit {
  return async (type, rel, text) => {
    if (text === undefined) rmSync(join(root, dirname(rel)), { recursive: true });
    else writeTree(root, { [rel]: text });
    compiler.notify(
      text === undefined
        ? [
            { type, path: join(root, rel) },
            { type: 'unlinkDir', path: join(root, dirname(rel)) },
          ]
        : [{ type, path: join(root, rel) }],
    );
    const result = await compiler.run({ write: true });
    expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  };
}
