/**
 * What assembly remembers between one compiler's runs, by the objects of its own caches, and the
 * lookups that use it: an unchanged unit keeps its model object, so every per-model step after
 * it (name rules, provider checks, emit) is memoised by identity.
 */
import type { ParsedSkillModel, SkillModel, ToolModel } from '../model.js';
import type { UnitResult } from '../parse/units.js';
import type { CapabilityUnit } from '../scan/layout.js';
import type { SchemaOutcome } from '../schema/types.js';
import { sameList } from '../util/lists.js';
import { NameRulesMemo } from './name-rules.js';
import { UnitLoopMemo } from './unit-loop.js';

/**
 * What one compiler's assembly remembers between its runs, by the objects of its own caches:
 * unchanged units keep their model objects, so emit reuses their text. Owned by the `Compiler`.
 */
export class AssembleMemo {
  /** The tree-wide name and reference rules' last input and outcome (resolve/name-rules.ts). */
  readonly names = new NameRulesMemo();
  /** The per-unit loop's shares and lists, patched by watch-mode runs (resolve/unit-loop.ts). */
  readonly units = new UnitLoopMemo();
  readonly models = new WeakMap<UnitResult, { hash: string; dir: string; model: object }>();
  readonly tools = new WeakMap<
    UnitResult,
    { outcome: SchemaOutcome | undefined; hash: string; unit: CapabilityUnit; model: ToolModel }
  >();
  /** The resolved skill made from a parsed one, kept while its associated tools stay the same. */
  readonly skills = new WeakMap<ParsedSkillModel, SkillModel>();
}

/** The parsed skill with its resolved tools: the same object as last run when nothing changed. */
export function resolvedSkill(
  memo: AssembleMemo['skills'],
  skill: ParsedSkillModel,
  tools: readonly string[],
): SkillModel {
  const known = memo.get(skill);
  if (known && sameList(known.tools, tools)) return known;
  const resolved: SkillModel = { ...skill, tools };
  memo.set(skill, resolved);
  return resolved;
}
