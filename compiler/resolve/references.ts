/**
 * Reference rule family: skill `tools` and agent.json `tools` must name public (plugin-placed)
 * tools; two platform agents may not be auto-selected for one platform (docs/authoring.md).
 */
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type { AgentModel, ParsedSkillModel, ToolModel } from '../model.js';

function skillKey(owner: string, agent: string | undefined, skill: string | undefined): string {
  return `${owner}\0${agent ?? '\u0001'}\0${skill ?? '\u0001'}`;
}

export interface ResolvedReferences {
  readonly diagnostics: Diagnostic[];
  /** Per skill, in the order given: the declared tools that resolved, then the skill's private tools. */
  readonly skillTools: readonly (readonly string[])[];
}

/**
 * `isHostTool` says whether a name the tree does not define is host-provided (declared in the
 * config, or always known); such references resolve, and each one is added to `hostReferenced`.
 */
export function resolveReferences(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  agents: readonly AgentModel[],
  isHostTool: (name: string) => boolean = () => false,
  hostReferenced: Set<string> = new Set(),
): ResolvedReferences {
  const out: Diagnostic[] = [];
  const skillTools: (readonly string[])[] = [];
  const publicTools = new Set(tools.filter((t) => t.placement === 'plugin').map((t) => t.qualifiedName));
  const definedTools = new Set(tools.map((t) => t.qualifiedName));
  // A name the tree defines is never host-provided: a private tool stays a private-tool error.
  const hostTool = (name: string): boolean => {
    if (definedTools.has(name) || !isHostTool(name)) return false;
    hostReferenced.add(name);
    return true;
  };
  // Only a reference error needs to know which tool a name is, so the map is built then.
  let allTools: Map<string, ToolModel> | undefined;
  const unknown = (name: string, where: string): string => {
    allTools ??= new Map(tools.map((t) => [t.qualifiedName, t]));
    const tool = allTools.get(name);
    return tool
      ? `${where} "${name}", which is a ${tool.placement}-private tool (${tool.source}); only plugin-placed tools can be referenced`
      : `${where} "${name}", which is not the qualifiedName of any public tool, nor declared host-provided (config hostProvided.tools)`;
  };
  // Skill-private tools grouped once by their skill: one pass over the tools, not one per skill.
  const privateBySkill = new Map<string, string[]>();
  for (const t of tools) {
    if (t.placement !== 'skill' && t.placement !== 'agent-skill') continue;
    const key = skillKey(t.owner, t.agent, t.skill);
    const list = privateBySkill.get(key);
    if (list) list.push(t.qualifiedName);
    else privateBySkill.set(key, [t.qualifiedName]);
  }
  for (const skill of skills) {
    const privateTools = [...(privateBySkill.get(skillKey(skill.owner, skill.agent, skill.name)) ?? [])].sort(
      compareStrings,
    );
    const declared: string[] = [];
    for (const ref of skill.declaredTools) {
      if (publicTools.has(ref.name) || hostTool(ref.name)) declared.push(ref.name);
      else
        out.push(
          diag('ZG3006', { ...ref.loc, message: unknown(ref.name, `Skill "${skill.qualifiedName}" lists tool`) }),
        );
    }
    skillTools.push([...new Set([...declared, ...privateTools])]);
  }
  const platformOwners = new Map<string, AgentModel[]>();
  for (const agent of agents) {
    for (const ref of agent.declaredTools) {
      if (!publicTools.has(ref.name) && !hostTool(ref.name))
        out.push(
          diag('ZG3006', {
            ...ref.loc,
            message: unknown(ref.name, `agent.json of "${agent.qualifiedName}" lists tool`),
          }),
        );
    }
    for (const platform of agent.platforms) {
      const list = platformOwners.get(platform.name) ?? [];
      list.push(agent);
      platformOwners.set(platform.name, list);
    }
  }
  for (const [platform, list] of platformOwners) {
    if (list.length < 2) continue;
    for (const agent of list) {
      const loc = agent.platforms.find((p) => p.name === platform)!.loc;
      const others = list.filter((a) => a !== agent);
      out.push(
        diag('ZG3007', {
          ...loc,
          message: `Platform "${platform}" has ${list.length} auto-selected agents: ${list.map((a) => `"${a.qualifiedName}" (${a.source})`).join(', ')}`,
          related: others.map((o) => ({
            ...o.platforms.find((p) => p.name === platform)!.loc,
            message: `platform agent "${o.qualifiedName}"`,
          })),
        }),
      );
    }
  }
  return { diagnostics: out, skillTools };
}
