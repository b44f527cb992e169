/**
 * The digest of everything a manifest depends on besides the cached units' own contents: the
 * units' identities, each plugin's AGENTS.md text and entry, the output path and the runtime
 * module. A fresh process whose digest equals the one recorded with the output on disk (and
 * parsed nothing) reuses that output without emitting (cache/units.ts `vouchedOutput`).
 */
import { createHash } from 'node:crypto';
import type { CapabilityUnit } from '../scan/layout.js';

/** What the output depends on besides the cached units' own contents. */
export function inputsDigest(
  units: readonly CapabilityUnit[],
  plugins: readonly { dir: string; agentsMd?: { text: string }; entrySource?: string }[],
  outRel: string,
  runtimeModule: string,
  contentOf: (key: string) => string,
): string {
  const hash = createHash('sha256').update(`${outRel}\0${runtimeModule}\0`);
  for (const unit of units)
    hash.update(`${unit.kind}:${unit.dir}:${unit.entry ?? ''}:${contentOf(`${unit.kind}:${unit.dir}`)}\n`);
  for (const plugin of plugins)
    hash.update(
      `${plugin.dir}\0${plugin.agentsMd?.text ?? ''}\0${plugin.entrySource ? contentOf(`plugin-entry:${plugin.entrySource}`) : ''}\n`,
    );
  return hash.digest('hex');
}
