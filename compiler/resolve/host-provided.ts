/**
 * Host-provided capabilities (docs/config.md "Host-provided capabilities"): tools and skills a
 * bot's skills and agents may reference although no file of the tree defines them — framework
 * built-ins, tools of installed packages, seam providers. The config declares them by exact name
 * or `*` pattern; `ask_user` and `spawn_task` are always known. The manifest records every such
 * name a skill or agent references, and `host.load` rejects a generation in which one is missing,
 * so a wrong declaration fails at prepare, never on first use.
 */
import { ASK_USER, SPAWN_TASK, foldName } from '@zhin-gen/runtime/names';
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

/** Declared names by their folded key (runtime/contract/names.ts foldName: the runtime's tables compare so). */
function byFolded<T>(entries: Iterable<readonly [string, T]>): Map<string, readonly [string, T]> {
  return new Map([...entries].map(([name, value]) => [foldName(name), [name, value] as const]));
}

/** `"name"`, and how it equals the other name when only case folding makes them one. */
function named(declared: string, own: string): string {
  return declared === own ? `"${declared}"` : `"${declared}" (equal after case folding)`;
}

/**
 * A tree capability with the name of a declared host-provided one, compared case-folded as the
 * runtime's tool and skill tables do: the two would clash the moment the host provides it (a
 * rejected generation), so it is a conflict now.
 */
export function hostNameClashes(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  declared: HostProvidedConfig,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hostTools = byFolded(exactNames(declared.tools).map((name) => [name, undefined] as const));
  const hostSkills = byFolded(exactNames(declared.skills).map((name) => [name, undefined] as const));
  for (const tool of tools) {
    const host = hostTools.get(foldName(tool.qualifiedName));
    if (!host) continue;
    out.push(
      diag('ZG3001', {
        ...tool.loc,
        message: `Tool "${tool.qualifiedName}" (${tool.source}) has the name of a tool the config declares host-provided (hostProvided.tools: ${named(host[0], tool.qualifiedName)}); the two would clash when the host provides it`,
      }),
    );
  }
  for (const skill of skills) {
    const host = hostSkills.get(foldName(skill.qualifiedName));
    if (!host) continue;
    out.push(
      diag('ZG3008', {
        ...skill.loc,
        message: `Skill "${skill.qualifiedName}" (${skill.source}) has the name of a skill the config declares host-provided (hostProvided.skills: ${named(host[0], skill.qualifiedName)}); the two would clash when the host provides it`,
      }),
    );
  }
  return out;
}

/**
 * A tree tool or skill with the name of one an installed package ships (case-folded, as the
 * runtime compares): a duplicate at host.load.
 */
export function packageNameClashes(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  packages: readonly ShippedCapabilities[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byTool = byFolded(packages.flatMap((p) => p.tools.map((name) => [name, p] as const)));
  const bySkill = byFolded(packages.flatMap((p) => p.skills.map((name) => [name, p] as const)));
  for (const tool of tools) {
    const found = byTool.get(foldName(tool.qualifiedName));
    if (found) {
      const [name, pkg] = found;
      out.push(
        diag('ZG3001', {
          ...tool.loc,
          message: `Tool "${tool.qualifiedName}" (${tool.source}) has the name of a tool of plugin "${pkg.owner}" (package ${pkg.name}): ${named(name, tool.qualifiedName)}`,
        }),
      );
    }
  }
  for (const skill of skills) {
    const found = bySkill.get(foldName(skill.qualifiedName));
    if (found) {
      const [name, pkg] = found;
      out.push(
        diag('ZG3008', {
          ...skill.loc,
          message: `Skill "${skill.qualifiedName}" (${skill.source}) has the name of a skill of plugin "${pkg.owner}" (package ${pkg.name}): ${named(name, skill.qualifiedName)}`,
        }),
      );
    }
  }
  return out;
}
