/**
 * Everything a compiler remembers between its own runs besides the unit cache: emitted pieces,
 * assembled models, the bytes it last wrote. Owned by the instance (never module state), so two
 * compilers in one process never evict each other's, and `dispose()` frees it. The emit stage's
 * part is made by the first run that emits (compiler/context.ts imports run-emit.ts then), so
 * this module names it by type only: a run with nothing to do never loads the emit stage.
 */
import type { EmitMemo } from './emit/memo.js';
import { AssembleMemo } from './resolve/model-memo.js';
import type { WrittenParts } from './write/output.js';
import type { KnownFolders } from './write/validators.js';

export interface RunMemos {
  readonly emit: EmitMemo;
  readonly assemble: AssembleMemo;
  readonly written: WrittenParts;
  readonly folders: KnownFolders;
}

/** A compiler's memos before and between runs: the emit stage's once a run has emitted. */
export type CompilerMemos = Omit<RunMemos, 'emit'> & { emit?: EmitMemo };

export function freshMemos(): CompilerMemos {
  return { assemble: new AssembleMemo(), written: new Map(), folders: new Map() };
}
