/**
 * The tree-wide name and reference rules of one assembly: reserved and provider-unsafe tool
 * names, duplicates and case-folded collisions per kind, skill and agent tool references, and
 * clashes with host-provided and packaged names. Their outcome depends only on where each
 * capability is and what it is called, so a watch-mode edit that leaves every tool's name, place
 * and location as they were (a schema, a description) reuses the last outcome after one pass of
 * comparisons instead of building the name sets of the whole tree again.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { AgentModel, ParsedSkillModel, ToolModel } from '../model.js';
import type { ResolvedOptions } from '../config/load.js';
import type { ShippedCapabilities } from '../scan/shipped.js';
import { checkToolNames, findConflicts, type NamedEntry } from './conflicts.js';
import { ALWAYS_KNOWN_TOOLS, hostMatcher, hostNameClashes, packageNameClashes } from './host-provided.js';
import { resolveReferences } from './references.js';
import { foldName } from '@zhin-gen/runtime/names';

export interface NameRulesInput {
  readonly tools: readonly ToolModel[];
  readonly skills: readonly ParsedSkillModel[];
  readonly agents: readonly AgentModel[];
  readonly hostProvided: ResolvedOptions['hostProvided'];
  readonly packages: readonly ShippedCapabilities[];
}

export interface NameRulesOutcome {
  readonly diagnostics: readonly Diagnostic[];
  /** Per skill, in the order given: its resolved tools (see resolveReferences). */
  readonly skillTools: readonly (readonly string[])[];
  /** Host-provided tool names some skill or agent references. */
  readonly hostReferenced: ReadonlySet<string>;
}

/** What the rules last saw and concluded; owned by the compiler's AssembleMemo. */
export class NameRulesMemo {
  readonly namedEntries = new WeakMap<ToolModel, NamedEntry>();
  last?: { readonly input: NameRulesInput; readonly outcome: NameRulesOutcome };
}

/** A tool as the name rules see it; memoised per model object (watch mode keeps unchanged ones). */
function namedEntry(namedEntries: WeakMap<ToolModel, NamedEntry>, t: ToolModel): NamedEntry {
  let entry = namedEntries.get(t);
  if (!entry) {
    entry = {
      name: t.qualifiedName,
      loc: t.conditional ? t.loc : { file: t.source, line: t.loc.line, column: t.loc.column },
      origin: t.conditional ? `addTool("${t.localName}") in ${t.source}` : `${t.placement} tool ${t.source}`,
      folded: foldName(t.qualifiedName),
    };
    namedEntries.set(t, entry);
  }
  return entry;
}

/** Everything of a tool the rules read: its names, its place, its source and its location. */
function samePlace(a: ToolModel, b: ToolModel): boolean {
  return (
    a === b ||
    (a.qualifiedName === b.qualifiedName &&
      a.localName === b.localName &&
      a.placement === b.placement &&
      a.owner === b.owner &&
      a.agent === b.agent &&
      a.skill === b.skill &&
      a.source === b.source &&
      a.conditional === b.conditional &&
      a.loc.file === b.loc.file &&
      a.loc.line === b.loc.line &&
      a.loc.column === b.loc.column)
  );
}

function sameInput(a: NameRulesInput, b: NameRulesInput): boolean {
  if (a.hostProvided !== b.hostProvided || a.packages !== b.packages) return false;
  if (a.tools.length !== b.tools.length || a.skills.length !== b.skills.length || a.agents.length !== b.agents.length)
    return false;
  // Skills and agents keep their model objects while unchanged (model-memo.ts `reuse`).
  for (let i = 0; i < a.skills.length; i++) if (a.skills[i] !== b.skills[i]) return false;
  for (let i = 0; i < a.agents.length; i++) if (a.agents[i] !== b.agents[i]) return false;
  for (let i = 0; i < a.tools.length; i++) if (!samePlace(a.tools[i]!, b.tools[i]!)) return false;
  return true;
}

export function nameRules(input: NameRulesInput, memo: NameRulesMemo): NameRulesOutcome {
  const last = memo.last;
  if (last && sameInput(last.input, input)) {
    memo.last = { input, outcome: last.outcome };
    return last.outcome;
  }
  const { tools, skills, agents, packages } = input;
  const diagnostics: Diagnostic[] = [];
  const toolEntries: NamedEntry[] = tools.map((t) => namedEntry(memo.namedEntries, t));
  diagnostics.push(...checkToolNames(toolEntries));
  diagnostics.push(...findConflicts('Tool', toolEntries, 'ZG3001'));
  diagnostics.push(
    ...findConflicts(
      'Skill',
      skills.map((s) => ({ name: s.qualifiedName, loc: s.loc, origin: `skill ${s.source}` })),
      'ZG3008',
    ),
  );
  diagnostics.push(
    ...findConflicts(
      'Agent',
      agents.map((a) => ({ name: a.qualifiedName, loc: a.loc, origin: `agent ${a.source}` })),
      'ZG3009',
    ),
  );
  const hostProvided = input.hostProvided ?? { tools: [], skills: [] };
  const hostReferenced = new Set<string>();
  // A shipped package's public tools are referenced like the host's: checked again at host.load.
  const packageTools = new Set(packages.flatMap((p) => p.publicTools));
  const declared = hostMatcher(hostProvided.tools, ALWAYS_KNOWN_TOOLS);
  const isHostTool = (name: string): boolean => declared(name) || packageTools.has(name);
  const references = resolveReferences(tools, skills, agents, isHostTool, hostReferenced);
  diagnostics.push(...references.diagnostics);
  diagnostics.push(...hostNameClashes(tools, skills, hostProvided), ...packageNameClashes(tools, skills, packages));
  const outcome = { diagnostics, skillTools: references.skillTools, hostReferenced };
  memo.last = { input, outcome };
  return outcome;
}
