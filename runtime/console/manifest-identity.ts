/**
 * The identity `host.catalog()` shows as `manifestHash` for a manifest that carries no `hash` of
 * its own (every generated one: a manifest-wide line in the generated module would change with
 * every edit and make a committed manifest conflict in every two pull requests; docs/cli.md).
 * Derived from what the manifest serves: each tool's content hash (or its entry, for a hand-made
 * tool without one) and every other entry's data (functions left out), so two hosts serve the
 * same capabilities exactly when they show the same identity. FNV-1a over two 32-bit lanes, 16
 * hex digits: an identity for operators comparing deployments, not a security digest. Computed
 * once per manifest, on first use.
 */
import type { CapabilityManifest } from '../contract/manifest.js';

const known = new WeakMap<CapabilityManifest, string>();

function fnv(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function manifestIdentity(manifest: CapabilityManifest): string {
  const memo = known.get(manifest);
  if (memo !== undefined) return memo;
  const tools = manifest.tools.map((tool) => tool.hash ?? JSON.stringify({ ...tool, load: undefined }));
  const text = JSON.stringify([
    manifest.version,
    tools,
    manifest.plugins,
    manifest.skills,
    manifest.agents,
    manifest.promptSections,
    manifest.hooks,
    manifest.hostProvided ?? null,
    (manifest.packages ?? []).map((p) => [p.owner, p.name, manifestIdentity(p.manifest)]),
  ]);
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  const identity = `${hex(fnv(text, 0x811c9dc5))}${hex(fnv(text, 0x01000193 ^ 0x9e3779b9))}`;
  known.set(manifest, identity);
  return identity;
}
