/**
 * Fingerprints of the generated folder's modules (shards.ts, types-module.ts): equal fingerprints
 * give equal text (emit is a pure function of them), so a fresh process takes the stamp recorded
 * for one (memo.ts `prints`) instead of rendering the module: the writer compares that stamp with
 * the file's, and renders only when they differ.
 */
import type { SideModule } from './search-module.js';
import type { ShardPaths } from './shards.js';

/**
 * Bumped when a module's text changes for the same inputs: a fingerprint recorded by an older
 * emitter must not vouch for a stamp the current one would not write. (The record is also
 * versioned with zhin-gen's own version: cache/emit-record.ts.) 2: shards named by their trie
 * path (shard-layout.ts), their stamp line without a shard count.
 */
const PRINT_FORMAT = 'zhin-gen module print 2';

/** What a module's fingerprint shares with every module of the folder: its name and place. */
export function placePrint(what: string, paths: ShardPaths): string {
  return `${PRINT_FORMAT}\0${what}\0${paths.dirRel}\0${paths.outRel}\0${paths.runtimeModule}\0${paths.context}\0${paths.header}`;
}

/** A module whose text is rendered only if the writer needs it, under the stamp recorded for its print. */
export function recorded(module: () => SideModule, name: string, stamp: string): SideModule {
  return { name, stamp, text: () => module().text() };
}
