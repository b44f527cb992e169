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

/**
 * What one compiler's assembly remembers between its runs, by the objects of its own caches:
 * unchanged units keep their model objects, so emit reuses their text. Owned by the `Compiler`.
 */
export class AssembleMemo {
  /** The tree-wide name and reference rules' last input and outcome (resolve/name-rules.ts). */
  readonly names = new NameRulesMemo();
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

/**
 * The model built for this unit result last run, if its hash and directory are unchanged: an
 * unchanged skill, agent, section or hook keeps its model object, so emit reuses its text.
 */
export function reuse<T extends object>(
  modelMemo: AssembleMemo['models'],
  result: UnitResult,
  unit: CapabilityUnit,
  hash: string,
  build: () => T,
): T {
  const memo = modelMemo.get(result);
  if (memo && memo.hash === hash && memo.dir === unit.dir) return memo.model as T;
  const model = build();
  modelMemo.set(result, { hash, dir: unit.dir, model });
  return model;
}
