/**
 * Resolve stage: unit results → the capability model. Names every capability (docs/authoring.md), then
 * runs the tree-wide rule families: conflicts, references, main-agent presence, platforms and
 * provider profiles. Everything here is in memory and linear in the number of capabilities.
 */
import type { ResolvedOptions } from '../config/load.js';
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type { CapabilityModel, ToolModel } from '../model.js';
import type { UnitResult } from '../parse/units.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { SchemaOutcome } from '../schema/types.js';
import { checkProviderProfiles } from '../validate/providers.js';
import { checkRequiredPrompt } from '../validate/prompt-budget.js';
import { nameRules } from './name-rules.js';
import type { ShippedCapabilities } from '../scan/shipped.js';
import { AssembleMemo, resolvedSkill } from './model-memo.js';
import { assemblePlugins } from './plugin-entries.js';

export { AssembleMemo } from './model-memo.js';

export interface AssembleInput {
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  readonly results: ReadonlyMap<CapabilityUnit, UnitResult>;
  /** Plugin entry results by plugin directory. */
  readonly entries: ReadonlyMap<string, UnitResult>;
  readonly schemas: ReadonlyMap<CapabilityUnit, SchemaOutcome>;
  readonly options: ResolvedOptions;
  hashOf(key: string): string;
  readText(path: string): string | undefined;
  /** The compiler's memos of earlier runs (see AssembleMemo); a fresh one reuses nothing. */
  readonly memos?: AssembleMemo;
  /**
   * The units whose results the parse stage replaced since the last run on these same `results`
   * and `schemas` maps (watch mode patches them in place: parse/unit-delta.ts); undefined when
   * any unit may have changed. Only these units' models are made again (resolve/unit-loop.ts).
   */
  readonly changed?: ReadonlySet<CapabilityUnit>;
  /** Installed plugin packages that ship their manifest (scan/shipped.ts). */
  readonly packages?: readonly ShippedCapabilities[];
  /**
   * Fingerprints of the tool models built (emit/shards.ts): `of` gives what the unit cache
   * digested of a unit's result and schema outcome (UnitCache.modelPrint), `into` receives each
   * new model's fingerprint, which adds what the model takes from its unit's place.
   */
  readonly prints?: {
    of(key: string, result: UnitResult, outcome: SchemaOutcome | undefined): string | undefined;
    readonly into: WeakMap<ToolModel, string>;
  };
}

export function assembleModel(input: AssembleInput): { model: CapabilityModel; diagnostics: Diagnostic[] } {
  const memos = input.memos ?? new AssembleMemo();
  const { options } = input;
  // Each unit's model, platform references and diagnostics, in unit order (resolve/unit-loop.ts).
  const { tools, parsedSkills, agents, promptSections, hooks, platformRefs, diagnostics } = memos.units.lists(
    input,
    memos,
  );

  const plugins = assemblePlugins(
    { layout: input.layout, entries: input.entries, readText: input.readText, hashOf: input.hashOf, promptSections },
    tools,
    platformRefs,
    diagnostics,
  );

  const packages = input.packages ?? [];
  const names = nameRules(
    { tools, skills: parsedSkills, agents, hostProvided: options.hostProvided, packages },
    memos.names,
  );
  diagnostics.push(...names.diagnostics);
  const skills = parsedSkills.map((skill, i) => resolvedSkill(memos.skills, skill, names.skillTools[i]!));
  diagnostics.push(
    ...checkProviderProfiles(
      tools.filter((t) => !t.conditional),
      options.providers,
    ),
    ...checkRequiredPrompt(plugins, agents),
  );
  if (options.adapters) {
    for (const ref of platformRefs) {
      if (!options.adapters.includes(ref.name)) {
        diagnostics.push(
          diag('ZG2032', {
            ...ref.loc,
            message: `${ref.what}: platform "${ref.name}" is not one of the configured adapters (${options.adapters.join(', ')})`,
          }),
        );
      }
    }
  }
  const hostTools = [...names.hostReferenced].sort(compareStrings);
  return {
    model: {
      plugins,
      tools,
      skills,
      agents,
      promptSections,
      hooks,
      ...(hostTools.length > 0 ? { hostTools } : {}),
      ...(packages.length > 0
        ? { packages: packages.map(({ owner, name, specifier }) => ({ owner, name, specifier })) }
        : {}),
    },
    diagnostics,
  };
}
