/**
 * Host-provided capabilities (docs/config.md "Host-provided capabilities"): tools and skills a
 * bot's skills and agents may reference although no file of the tree defines them — framework
 * built-ins, tools of installed packages, seam providers. The config declares them by exact name
 * or `*` pattern; `ask_user` and `spawn_task` are always known. The manifest records every such
 * name a skill or agent references, and `host.load` rejects a generation in which one is missing,
 * so a wrong declaration fails at prepare, never on first use.
 */
import { ASK_USER, SPAWN_TASK } from '@zhin-gen/runtime/names';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ParsedSkillModel, ToolModel } from '../model.js';
import type { ShippedCapabilities } from '../scan/shipped.js';

export interface HostProvidedConfig {
  readonly tools: readonly string[];
  readonly skills: readonly string[];
}

/** Tools every host has (generation-owned, or the task runner's), whatever the config says. */
export const ALWAYS_KNOWN_TOOLS: readonly string[] = [ASK_USER, SPAWN_TASK];

function patternOf(entry: string): RegExp {
  const body = entry
    .split('*')
    .map((part) => part.replace(/[-]/g, '\\-'))
    .join('[A-Za-z0-9_-]*');
  return new RegExp(`^${body}$`);
}

/** Whether a name is declared: exact entries by equality, `*` entries as patterns. */
export function hostMatcher(entries: readonly string[], always: readonly string[] = []): (name: string) => boolean {
  const exact = new Set([...always, ...entries.filter((e) => !e.includes('*'))]);
  const patterns = entries.filter((e) => e.includes('*')).map(patternOf);
  return (name) => exact.has(name) || patterns.some((p) => p.test(name));
}

/** The exact (pattern-free) declared names, for conflict checks against the tree's own names. */
export function exactNames(entries: readonly string[]): readonly string[] {
  return entries.filter((e) => !e.includes('*'));
}

/**
 * A tree capability with the exact name of a declared host-provided one: the two would clash the
 * moment the host provides it (a rejected generation), so it is a conflict now.
 */
export function hostNameClashes(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  declared: HostProvidedConfig,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hostTools = new Set(exactNames(declared.tools));
  const hostSkills = new Set(exactNames(declared.skills));
  for (const tool of tools) {
    if (!hostTools.has(tool.qualifiedName)) continue;
    out.push(
      diag('ZG3001', {
        ...tool.loc,
        message: `Tool "${tool.qualifiedName}" (${tool.source}) has the name of a tool the config declares host-provided (hostProvided.tools); the two would clash when the host provides it`,
      }),
    );
  }
  for (const skill of skills) {
    if (!hostSkills.has(skill.qualifiedName)) continue;
    out.push(
      diag('ZG3008', {
        ...skill.loc,
        message: `Skill "${skill.qualifiedName}" (${skill.source}) has the name of a skill the config declares host-provided (hostProvided.skills); the two would clash when the host provides it`,
      }),
    );
  }
  return out;
}

/** A tree tool or skill with the name of one an installed package ships: a duplicate at host.load. */
export function packageNameClashes(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  packages: readonly ShippedCapabilities[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byTool = new Map(packages.flatMap((p) => p.tools.map((name) => [name, p] as const)));
  const bySkill = new Map(packages.flatMap((p) => p.skills.map((name) => [name, p] as const)));
  for (const tool of tools) {
    const pkg = byTool.get(tool.qualifiedName);
    if (pkg)
      out.push(
        diag('ZG3001', {
          ...tool.loc,
          message: `Tool "${tool.qualifiedName}" (${tool.source}) has the name of a tool of plugin "${pkg.owner}" (package ${pkg.name})`,
        }),
      );
  }
  for (const skill of skills) {
    const pkg = bySkill.get(skill.qualifiedName);
    if (pkg)
      out.push(
        diag('ZG3008', {
          ...skill.loc,
          message: `Skill "${skill.qualifiedName}" (${skill.source}) has the name of a skill of plugin "${pkg.owner}" (package ${pkg.name})`,
        }),
      );
  }
  return out;
}
