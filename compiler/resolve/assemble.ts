/**
 * Resolve stage: unit results → the capability model. Names every capability (docs/authoring.md), then
 * runs the tree-wide rule families: conflicts, references, main-agent presence, platforms and
 * provider profiles. Everything here is in memory and linear in the number of capabilities.
 */
import type { ResolvedOptions } from '../config/load.js';
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type {
  AgentModel,
  CapabilityModel,
  HookModel,
  ParsedSkillModel,
  PromptSectionModel,
  ToolModel,
} from '../model.js';
import type { UnitResult } from '../parse/units.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import { EMPTY_INPUT_SCHEMA } from '../schema/empty.js';
import type { SchemaOutcome } from '../schema/types.js';
import { checkProviderProfiles } from '../validate/providers.js';
import { agentQualifiedName, skillQualifiedName, toolQualifiedName } from '@zhin-gen/runtime/names';
import { nameRules } from './name-rules.js';
import type { ShippedCapabilities } from '../scan/shipped.js';
import { unitKey } from '../cache/unit-key.js';
import { AssembleMemo, resolvedSkill, reuse } from './model-memo.js';
import { assemblePlugins, type PlatformRef } from './plugin-entries.js';

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

function enclosureOf(unit: CapabilityUnit) {
  return {
    owner: unit.owner,
    placement: unit.placement,
    ...(unit.agent !== undefined ? { agent: unit.agent } : {}),
    ...(unit.skill !== undefined && unit.kind !== 'skill' ? { skill: unit.skill } : {}),
  };
}

function sortedFiles(unit: CapabilityUnit, under: string): string[] {
  return unit.files.filter((f) => f.startsWith(`${unit.dir}/${under}/`)).sort(compareStrings);
}

export function assembleModel(input: AssembleInput): { model: CapabilityModel; diagnostics: Diagnostic[] } {
  const memos = input.memos ?? new AssembleMemo();
  const toolMemo = memos.tools;
  const { units, results, options } = input;
  const diagnostics: Diagnostic[] = [];
  const tools: ToolModel[] = [];
  const parsedSkills: ParsedSkillModel[] = [];
  const agents: AgentModel[] = [];
  const promptSections: PromptSectionModel[] = [];
  const hooks: HookModel[] = [];
  const platformRefs: PlatformRef[] = [];

  for (const unit of units) {
    const result = results.get(unit)!;
    if (result.diagnostics.length > 0) diagnostics.push(...result.diagnostics);
    const data = result.data;
    if (!data) continue;
    const hash = input.hashOf(unitKey(unit));
    const source = unit.entry ?? unit.dir;
    if (data.kind === 'tool') {
      const outcome = input.schemas.get(unit);
      if (outcome && !outcome.ok) diagnostics.push(...outcome.diagnostics);
      for (const p of data.platforms) platformRefs.push({ name: p.value, loc: p.loc, what: `tool "${unit.name}"` });
      // Unchanged unit + unchanged schema outcome → the same model object as last run, so
      // per-tool work downstream (provider checks, emit) is memoised by identity.
      const memo = toolMemo.get(result);
      if (memo && memo.outcome === outcome && memo.hash === hash && memo.unit.dir === unit.dir) {
        tools.push(memo.model);
        continue;
      }
      const enclosure = enclosureOf(unit);
      const model: ToolModel = {
        kind: 'tool',
        ...enclosure,
        localName: unit.name,
        qualifiedName: toolQualifiedName(enclosure, unit.name),
        source,
        related: unit.files.filter((f) => f !== unit.entry),
        loc: data.loc,
        ...(data.descriptionLoc ? { descriptionLoc: data.descriptionLoc } : {}),
        ...(data.schemaLoc ? { schemaLoc: data.schemaLoc } : {}),
        description: data.description,
        inputSchema: outcome?.ok ? outcome.schema : EMPTY_INPUT_SCHEMA,
        schemaOrigin: outcome?.ok ? outcome.origin : 'none',
        schemaVia: outcome?.ok ? outcome.via : 'none',
        requiresApproval: data.requiresApproval,
        platforms: data.platforms.map((p) => p.value),
        scopes: data.scopes,
        permissions: data.permissions,
        hidden: data.hidden,
        keywords: data.keywords,
        tags: data.tags,
        conditional: false,
        typed: /\.m?ts$/.test(source),
        hash,
      };
      toolMemo.set(result, { outcome, hash, unit, model });
      const content = input.prints?.of(unitKey(unit), result, outcome);
      // Everything else a model holds comes from the result and the outcome the content covers.
      if (content !== undefined)
        input.prints!.into.set(
          model,
          `unit:${JSON.stringify([enclosure, unit.name, source, model.related, model.typed])}\0${content}`,
        );
      tools.push(model);
    } else if (data.kind === 'skill') {
      data.platforms.forEach((name, i) => {
        platformRefs.push({ name, loc: data.platformLocs[i] ?? data.loc, what: `skill "${unit.name}"` });
      });
      parsedSkills.push(
        reuse(
          memos.models,
          result,
          unit,
          hash,
          (): ParsedSkillModel => ({
            kind: 'skill',
            owner: unit.owner,
            ...(unit.agent !== undefined ? { agent: unit.agent } : {}),
            name: unit.name,
            qualifiedName: skillQualifiedName(unit.owner, unit.name, unit.agent),
            source,
            loc: data.loc,
            description: data.description,
            declaredTools: data.declaredTools,
            platforms: data.platforms,
            scopes: data.scopes,
            permissions: data.permissions,
            keywords: data.keywords,
            tags: data.tags,
            always: data.always,
            instructions: data.instructions,
            hash,
          }),
        ),
      );
    } else if (data.kind === 'agent') {
      for (const p of data.platforms) platformRefs.push({ name: p.name, loc: p.loc, what: `agent "${unit.name}"` });
      agents.push(
        reuse(
          memos.models,
          result,
          unit,
          hash,
          (): AgentModel => ({
            kind: 'agent',
            owner: unit.owner,
            name: unit.name,
            qualifiedName: agentQualifiedName(unit.owner, unit.name),
            source,
            loc: data.loc,
            description: data.description,
            platforms: data.platforms,
            declaredTools: data.declaredTools,
            ...(data.model !== undefined ? { model: data.model } : {}),
            ...(data.maxSteps !== undefined ? { maxSteps: data.maxSteps } : {}),
            system: data.system,
            boundaries: data.boundaries,
            conventions: data.conventions,
            workflows: sortedFiles(unit, 'workflows'),
            knowledge: sortedFiles(unit, 'knowledge'),
            hash,
          }),
        ),
      );
    } else if (data.kind === 'prompt-section') {
      for (const p of data.platforms)
        platformRefs.push({ name: p.value, loc: p.loc, what: `prompt section "${unit.name}"` });
      promptSections.push(
        reuse(
          memos.models,
          result,
          unit,
          hash,
          (): PromptSectionModel => ({
            kind: 'prompt-section',
            owner: unit.owner,
            name: unit.name,
            source,
            loc: data.loc,
            title: data.title,
            content: data.content,
            layer: data.layer,
            order: data.order,
            retention: data.retention,
            ...(data.maxChars !== undefined ? { maxChars: data.maxChars } : {}),
            profiles: data.profiles,
            platforms: data.platforms.map((p) => p.value),
            hash,
          }),
        ),
      );
    } else if (data.kind === 'hook') {
      hooks.push(
        reuse(
          memos.models,
          result,
          unit,
          hash,
          (): HookModel => ({
            kind: 'hook',
            ...enclosureOf(unit),
            name: unit.name,
            source,
            loc: data.loc,
            events: data.events,
            hash,
          }),
        ),
      );
    }
  }

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
