/**
 * `zhin-gen inspect`: the capability tree — owners, placements, disclosure and sources. The JSON
 * shape is a contract (issue #2); the pretty tree is for people.
 */
import { compareStrings } from '../diagnostics.js';
import { printable } from '../report/index.js';
import { enclosingNames, hookId, promptSectionId } from '@zhin-gen/runtime/names';
import type { CapabilityModel, ToolModel } from '../model.js';

/** When the runtime discloses the tool, in words (the names come from the placement rule itself). */
export function disclosureOf(tool: ToolModel): string {
  if (tool.conditional) return 'setup(): registered at runtime when the plugin adds it';
  const { agent, skill } = enclosingNames(tool);
  if (agent !== undefined && skill !== undefined) return `when agent "${agent}" is selected and load_skill "${skill}"`;
  if (agent !== undefined) return `when agent "${agent}" is selected`;
  if (skill !== undefined) return `after load_skill "${skill}"`;
  return 'turn start (deferred catalog)';
}

export function inspectJson(model: CapabilityModel): object {
  const byName = <T extends { qualifiedName: string }>(a: T, b: T): number =>
    compareStrings(a.qualifiedName, b.qualifiedName);
  return {
    tools: [...model.tools].sort(byName).map((t) => ({
      qualifiedName: t.qualifiedName,
      localName: t.localName,
      owner: t.owner,
      placement: t.placement,
      agent: t.agent ?? null,
      skill: t.skill ?? null,
      source: t.source,
      description: t.description,
      requiresApproval: t.requiresApproval,
      platforms: t.platforms,
      scopes: t.scopes,
      permissions: t.permissions,
      hidden: t.hidden,
      conditional: t.conditional,
      disclosure: disclosureOf(t),
      inputSchema: t.inputSchema,
      schemaVia: t.schemaVia,
    })),
    skills: [...model.skills].sort(byName).map((s) => ({
      qualifiedName: s.qualifiedName,
      name: s.name,
      owner: s.owner,
      agent: s.agent ?? null,
      description: s.description,
      tools: s.tools,
      source: s.source,
    })),
    agents: [...model.agents].sort(byName).map((a) => ({
      qualifiedName: a.qualifiedName,
      name: a.name,
      owner: a.owner,
      description: a.description,
      platforms: a.platforms.map((p) => p.name),
      tools: a.declaredTools.map((t) => t.name),
      source: a.source,
    })),
    promptSections: [...model.promptSections]
      .sort((a, b) => compareStrings(promptSectionId(a), promptSectionId(b)))
      .map((p) => ({
        id: promptSectionId(p),
        name: p.name,
        owner: p.owner,
        title: p.title,
        layer: p.layer,
        order: p.order,
        retention: p.retention,
        maxChars: p.maxChars ?? null,
        profiles: p.profiles,
        platforms: p.platforms,
        source: p.source,
      })),
    hooks: [...model.hooks]
      .sort((a, b) => compareStrings(hookId(a), hookId(b)))
      .map((h) => ({
        id: hookId(h),
        name: h.name,
        owner: h.owner,
        placement: h.placement,
        agent: h.agent ?? null,
        skill: h.skill ?? null,
        events: h.events,
        source: h.source,
      })),
  };
}

/** How each schema was obtained, in words (what a build spends on it differs: `static` runs nothing). */
const SCHEMA_VIA = {
  static: 'translated statically',
  inline: 'evaluated in the VM',
  bundle: 'from the bundled module',
} as const;

export function inspectPretty(model: CapabilityModel): string {
  const lines: string[] = [];
  const owners = [...new Set(model.plugins.map((p) => p.owner))].sort(compareStrings);
  for (const owner of owners) {
    const plugin = model.plugins.find((p) => p.owner === owner)!;
    lines.push(
      `${owner === '' ? '(root plugin)' : `plugin ${owner}`}  ${plugin.dir === '' ? '.' : plugin.dir}${plugin.agentsMd ? '  AGENTS.md' : ''}${plugin.entrySource ? `  ${plugin.entrySource}` : ''}`,
    );
    const tools = model.tools
      .filter((t) => t.owner === owner)
      .sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
    if (tools.length > 0) lines.push('  tools');
    for (const t of tools) {
      const flags = [t.hidden ? 'hidden' : '', t.conditional ? 'conditional' : '', `approval:${t.requiresApproval}`]
        .filter(Boolean)
        .join(' ');
      lines.push(`    ${t.qualifiedName.padEnd(28)} ${t.placement.padEnd(11)} ${flags}  ${t.source}`);
      lines.push(
        `      disclosed ${disclosureOf(t)}${t.schemaVia === 'none' ? '' : `; schema ${SCHEMA_VIA[t.schemaVia]}`}`,
      );
    }
    const skills = model.skills
      .filter((s) => s.owner === owner)
      .sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
    if (skills.length > 0) lines.push('  skills');
    for (const s of skills)
      lines.push(`    ${s.qualifiedName.padEnd(28)} tools: ${s.tools.join(', ') || '-'}  ${s.source}`);
    const agents = model.agents
      .filter((a) => a.owner === owner)
      .sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
    if (agents.length > 0) lines.push('  agents');
    for (const a of agents)
      lines.push(
        `    ${a.qualifiedName.padEnd(28)} ${a.platforms.length > 0 ? `platform agent: ${a.platforms.map((p) => p.name).join(', ')}` : 'selected explicitly'}  ${a.source}`,
      );
    const sections = model.promptSections.filter((p) => p.owner === owner);
    if (sections.length > 0) lines.push('  prompt sections');
    for (const p of sections)
      lines.push(`    ${p.name.padEnd(28)} ${p.layer}/${p.retention} order ${p.order}  ${p.source}`);
    const hooks = model.hooks.filter((h) => h.owner === owner);
    if (hooks.length > 0) lines.push('  hooks');
    for (const h of hooks)
      lines.push(
        `    ${h.name.padEnd(28)} ${h.placement}${h.agent ? ` ${h.agent}` : ''}${h.skill ? ` ${h.skill}` : ''} [${h.events.join(', ')}]  ${h.source}`,
      );
  }
  // The tree's text (names, descriptions): never escape sequences or bidi controls on a terminal.
  return lines.map(printable).join('\n');
}
