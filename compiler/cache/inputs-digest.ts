/**
 * The digest of everything a manifest depends on besides the cached units' own contents: the
 * units' identities, each plugin's AGENTS.md text and entry, the output path and the runtime
 * module. A fresh process whose digest equals the one recorded with the output on disk (and
 * parsed nothing) reuses that output without emitting (cache/units.ts `vouchedOutput`).
 */
import { createHash } from 'node:crypto';
import type { CapabilityUnit, PluginLayout } from '../scan/layout.js';

/** What the digest reads of each plugin: its directory, AGENTS.md text and entry file. */
export interface PluginInput {
  readonly dir: string;
  readonly agentsMd?: { readonly text: string };
  readonly entrySource?: string;
}

/**
 * The plugins of a layout as the digest reads them. From the layout, not the model, so a run can
 * tell that nothing changed before it assembles (or even loads) anything.
 */
export function pluginInputs(
  plugins: readonly PluginLayout[],
  readText: (path: string) => string | undefined,
): PluginInput[] {
  return plugins.map((p) => ({
    dir: p.dir,
    ...(p.agentsMd ? { agentsMd: { text: `${p.agentsMd}\0${readText(p.agentsMd) ?? '\0unreadable'}` } } : {}),
    ...(p.entry ? { entrySource: p.entry } : {}),
  }));
}

/** Units' texts hashed per update call. */
const CHUNK = 512;

/** What the output depends on besides the cached units' own contents. */
export function inputsDigest(
  units: readonly CapabilityUnit[],
  plugins: readonly PluginInput[],
  outRel: string,
  runtimeModule: string,
  contentOf: (key: string) => string,
): string {
  const hash = createHash('sha256').update(`${outRel}\0${runtimeModule}\0`);
  // The same bytes as one update per unit, fed in chunks: a hash.update call per unit (20,000
  // at 20,000 tools) cost more than hashing the text did.
  let chunk: string[] = [];
  const add = (text: string): void => {
    if (chunk.push(text) < CHUNK) return;
    hash.update(chunk.join(''));
    chunk = [];
  };
  for (const unit of units)
    add(`${unit.kind}:${unit.dir}:${unit.entry ?? ''}:${contentOf(`${unit.kind}:${unit.dir}`)}\n`);
  for (const plugin of plugins)
    add(
      `${plugin.dir}\0${plugin.agentsMd?.text ?? ''}\0${plugin.entrySource ? contentOf(`plugin-entry:${plugin.entrySource}`) : ''}\n`,
    );
  if (chunk.length > 0) hash.update(chunk.join(''));
  return hash.digest('hex');
}
