/**
 * Installed plugin packages that ship their own generated manifest (docs/runtime.md "Installed
 * plugin packages"). The bot's manifest carries each package's manifest under its instance key;
 * `host.load` merges them into one manifest before preparing, exactly as if the package were the
 * child plugin `plugins/<key>/`: owners become `<key>` / `<key>/<child>`, qualifiedNames
 * `<key>__<name>` (the child-plugin rule of docs/authoring.md, which holds for every placement),
 * and the package's references to host-provided tools keep their names.
 */
import type {
  CapabilityManifest,
  ManifestAgent,
  ManifestHook,
  ManifestPlugin,
  ManifestPromptSection,
  ManifestSkill,
  ManifestTool,
} from '../contract/manifest.js';
import { hookId, promptSectionId } from '../contract/names.js';

function rekey(key: string, owner: string): string {
  return owner === '' ? key : `${key}/${owner}`;
}

/** One package's manifest as the bot's child `key` sees it. */
function underKey(key: string, name: string, input: CapabilityManifest): CapabilityManifest {
  const manifest = flattenPackages(input);
  const prefix = `${key.split('/').join('__')}__`;
  const host = new Set(manifest.hostProvided?.tools ?? []);
  const named = (n: string): string => (host.has(n) ? n : prefix + n);
  const source = (s: string): string => `${name}:${s}`;
  const tools: ManifestTool[] = manifest.tools.map((t) => ({
    ...t,
    qualifiedName: prefix + t.qualifiedName,
    owner: rekey(key, t.owner),
    source: source(t.source),
  }));
  const skills: ManifestSkill[] = manifest.skills.map((s) => ({
    ...s,
    qualifiedName: prefix + s.qualifiedName,
    owner: rekey(key, s.owner),
    tools: s.tools.map(named),
    source: source(s.source),
  }));
  const agents: ManifestAgent[] = manifest.agents.map((a) => ({
    ...a,
    qualifiedName: prefix + a.qualifiedName,
    owner: rekey(key, a.owner),
    tools: a.tools.map(named),
    source: source(a.source),
  }));
  const promptSections: ManifestPromptSection[] = manifest.promptSections.map((p) => ({
    ...p,
    id: promptSectionId({ owner: rekey(key, p.owner), name: p.name }),
    owner: rekey(key, p.owner),
    source: source(p.source),
  }));
  const hooks: ManifestHook[] = manifest.hooks.map((h) => ({
    ...h,
    id: hookId({ ...h, owner: rekey(key, h.owner) }),
    owner: rekey(key, h.owner),
    source: source(h.source),
  }));
  const plugins: ManifestPlugin[] = manifest.plugins.map((p) => ({
    ...p,
    owner: rekey(key, p.owner),
    conditionalTools: p.conditionalTools.map((c) => ({ ...c, qualifiedName: prefix + c.qualifiedName })),
  }));
  return {
    version: 1,
    plugins,
    tools,
    skills,
    agents,
    promptSections,
    hooks,
    ...(host.size > 0 ? { hostProvided: { tools: [...host] } } : {}),
  };
}

/** The manifest with every shipped package merged in (the manifest itself when it has none). */
export function flattenPackages(manifest: CapabilityManifest): CapabilityManifest {
  const packages = manifest.packages ?? [];
  if (packages.length === 0) return manifest;
  const parts = packages.map((p) => {
    if (typeof p?.manifest !== 'object' || p.manifest === null || p.manifest.version !== 1)
      throw new TypeError(`package "${String(p?.name)}" of plugin "${String(p?.owner)}" has no version 1 manifest`);
    return underKey(p.owner, p.name, p.manifest);
  });
  const all = [manifest, ...parts];
  const host = [...new Set(all.flatMap((m) => m.hostProvided?.tools ?? []))];
  const { packages: _merged, ...rest } = manifest;
  return {
    ...rest,
    plugins: all.flatMap((m) => m.plugins),
    tools: all.flatMap((m) => m.tools),
    skills: all.flatMap((m) => m.skills),
    agents: all.flatMap((m) => m.agents),
    promptSections: all.flatMap((m) => m.promptSections),
    hooks: all.flatMap((m) => m.hooks),
    ...(host.length > 0 ? { hostProvided: { tools: host } } : {}),
  };
}
