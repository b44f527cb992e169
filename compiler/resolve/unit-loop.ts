/**
 * Assembly's per-unit loop (resolve/assemble.ts): each unit's result and schema outcome → its
 * model (reused by identity while they are unchanged), its platform references and its
 * diagnostics, gathered in unit order.
 *
 * Why a memo of the gathered lists: in watch mode the loop ran over every unit on every save
 * (about 10 ms at 5,000 tools and 40 ms at 20,000, self time, although each unchanged unit only
 * took its last model back). A unit's share depends on nothing but the unit, its result, its
 * schema outcome, its cache hash and its print (all set when its cache entry is), so when the
 * parse stage names the units whose results it replaced (parse/unit-delta.ts) and the unit list is
 * the last one, only those shares are made again and the last lists are copied with them patched
 * in (or gathered again from the kept shares, when a share's kind or counts changed). The lists
 * are new arrays every run: the last model's lists stay as they were for the memos holding them.
 */
import type { Diagnostic } from '../diagnostics.js';
import { compareStrings } from '../diagnostics.js';
import type { AgentModel, HookModel, ParsedSkillModel, PromptSectionModel, ToolModel } from '../model.js';
import type { ToolUnitData, UnitResult } from '../parse/units.js';
import type { CapabilityUnit } from '../scan/layout.js';
import type { SchemaOutcome } from '../schema/types.js';
import { agentQualifiedName, skillQualifiedName } from '@zhin-gen/runtime/names';
import { recordOfResult } from '../cache/deferred.js';
import { enclosureOf, plainToolModel, RecordToolModel } from './record-tool.js';
import { unitKey } from '../cache/unit-key.js';
import type { AssembleInput } from './assemble.js';
import type { AssembleMemo } from './model-memo.js';
import type { PlatformRef } from './plugin-entries.js';

/** What the per-unit loop gathers, in unit order. */
export interface UnitLists {
  readonly tools: ToolModel[];
  readonly parsedSkills: ParsedSkillModel[];
  readonly agents: AgentModel[];
  readonly promptSections: PromptSectionModel[];
  readonly hooks: HookModel[];
  readonly platformRefs: PlatformRef[];
  readonly diagnostics: Diagnostic[];
}

type ListName = 'tools' | 'parsedSkills' | 'agents' | 'promptSections' | 'hooks';

/** One unit's share of the lists, and where it sits in them. */
interface Share {
  readonly list: ListName | undefined;
  readonly model: object | undefined;
  readonly refs: readonly PlatformRef[];
  readonly diagnostics: readonly Diagnostic[];
  /** Positions in the gathered lists (the model's in its list, the first ref, the first diagnostic). */
  at: number;
  refsAt: number;
  diagnosticsAt: number;
}

function sortedFiles(unit: CapabilityUnit, under: string): string[] {
  return unit.files.filter((f) => f.startsWith(`${unit.dir}/${under}/`)).sort(compareStrings);
}

const NO_REFS: readonly PlatformRef[] = [];

/**
 * The model built for this unit result last run, if its hash and directory are unchanged: an
 * unchanged skill, agent, section or hook keeps its model object, so emit reuses its text.
 */
function reuse<T extends object>(
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

/** The unit's share: its model (the last one while result, outcome and hash hold), refs and diagnostics. */
function shareOf(unit: CapabilityUnit, input: AssembleInput, memos: AssembleMemo): Share {
  const result = input.results.get(unit)!;
  // A unit read from its cache record (cache/deferred.ts) is a tool without its body being read.
  const record = recordOfResult(result);
  const kind = record ? record.kind : result.data?.kind;
  const share = (
    list: ListName | undefined,
    model?: object,
    refs = NO_REFS,
    diagnostics = result.diagnostics,
  ): Share => ({
    list,
    model,
    refs,
    diagnostics,
    at: -1,
    refsAt: -1,
    diagnosticsAt: -1,
  });
  if (kind === undefined) return share(undefined);
  const hash = input.hashOf(unitKey(unit));
  const source = unit.entry ?? unit.dir;
  if (kind === 'tool') {
    const outcome = input.schemas.get(unit);
    const diagnostics = outcome && !outcome.ok ? [...result.diagnostics, ...outcome.diagnostics] : result.diagnostics;
    const refs = (record?.tool?.platforms ?? toolData(result).platforms).map((p) => ({
      name: p.value,
      loc: p.loc,
      what: `tool "${unit.name}"`,
    }));
    return share('tools', toolModel(unit, result, outcome, hash, source, input, memos), refs, diagnostics);
  }
  const data = result.data;
  if (!data) return share(undefined);
  if (data.kind === 'skill') {
    const refs = data.platforms.map((name, i) => ({
      name,
      loc: data.platformLocs[i] ?? data.loc,
      what: `skill "${unit.name}"`,
    }));
    const model = reuse(
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
        ...data.passThrough,
        hash,
      }),
    );
    return share('parsedSkills', model, refs);
  }
  if (data.kind === 'agent') {
    const refs = data.platforms.map((p) => ({ name: p.name, loc: p.loc, what: `agent "${unit.name}"` }));
    const model = reuse(
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
    );
    return share('agents', model, refs);
  }
  if (data.kind === 'prompt-section') {
    const refs = data.platforms.map((p) => ({ name: p.value, loc: p.loc, what: `prompt section "${unit.name}"` }));
    const model = reuse(
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
        ...(data.content !== undefined ? { content: data.content } : {}),
        layer: data.layer,
        order: data.order,
        retention: data.retention,
        ...(data.maxChars !== undefined ? { maxChars: data.maxChars } : {}),
        profiles: data.profiles,
        platforms: data.platforms.map((p) => p.value),
        hash,
      }),
    );
    return share('promptSections', model, refs);
  }
  if (data.kind === 'hook') {
    const model = reuse(
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
    );
    return share('hooks', model);
  }
  return share(undefined);
}

function toolData(result: UnitResult): ToolUnitData {
  const data = result.data;
  if (data?.kind !== 'tool') throw new Error('not a tool');
  return data;
}

/** A tool's model: the last one while its result, outcome, hash and directory hold. */
function toolModel(
  unit: CapabilityUnit,
  result: UnitResult,
  outcome: SchemaOutcome | undefined,
  hash: string,
  source: string,
  input: AssembleInput,
  memos: AssembleMemo,
): ToolModel {
  // Unchanged unit + unchanged schema outcome → the same model object as last run, so
  // per-tool work downstream (provider checks, emit) is memoised by identity.
  const memo = memos.tools.get(result);
  if (memo && memo.outcome === outcome && memo.hash === hash && memo.unit.dir === unit.dir) return memo.model;
  // A unit read from its cache record keeps its body unread until a field only the body holds is.
  const record = recordOfResult(result)?.tool;
  const enclosure = enclosureOf(unit);
  let model: ToolModel;
  if (record) model = new RecordToolModel(unit, enclosure, record, result, outcome, hash);
  else {
    const data = result.data;
    if (data?.kind !== 'tool') throw new Error('not a tool');
    model = plainToolModel(unit, data, outcome, hash, source);
  }
  memos.tools.set(result, { outcome, hash, unit, model });
  const content = input.prints?.of(unitKey(unit), result, outcome);
  // Everything else a model holds comes from the result and the outcome the content covers.
  if (content !== undefined)
    input.prints!.into.set(
      model,
      `unit:${JSON.stringify([enclosure, unit.name, source, model.related, model.typed])}\0${content}`,
    );
  return model;
}

/** The lists of these shares, in unit order, each share told where it sits. */
function gather(shares: readonly Share[]): UnitLists {
  const lists: UnitLists = {
    tools: [],
    parsedSkills: [],
    agents: [],
    promptSections: [],
    hooks: [],
    platformRefs: [],
    diagnostics: [],
  };
  for (const share of shares) {
    share.diagnosticsAt = lists.diagnostics.length;
    if (share.diagnostics.length > 0) lists.diagnostics.push(...share.diagnostics);
    if (share.list === undefined) continue;
    const list = lists[share.list] as object[];
    share.at = list.length;
    list.push(share.model!);
    share.refsAt = lists.platformRefs.length;
    if (share.refs.length > 0) lists.platformRefs.push(...share.refs);
  }
  return lists;
}

/** The last lists with the changed shares put in their places; undefined when a place moved. */
function patched(last: UnitLists, changes: readonly (readonly [Share, Share])[]): UnitLists | undefined {
  for (const [old, next] of changes)
    if (
      old.list !== next.list ||
      old.refs.length !== next.refs.length ||
      old.diagnostics.length !== next.diagnostics.length
    )
      return undefined;
  const lists: UnitLists = {
    tools: last.tools.slice(),
    parsedSkills: last.parsedSkills.slice(),
    agents: last.agents.slice(),
    promptSections: last.promptSections.slice(),
    hooks: last.hooks.slice(),
    platformRefs: last.platformRefs.slice(),
    diagnostics: last.diagnostics.slice(),
  };
  for (const [old, next] of changes) {
    next.at = old.at;
    next.refsAt = old.refsAt;
    next.diagnosticsAt = old.diagnosticsAt;
    if (next.list !== undefined) (lists[next.list] as object[])[next.at] = next.model!;
    next.refs.forEach((ref, i) => {
      lists.platformRefs[next.refsAt + i] = ref;
    });
    next.diagnostics.forEach((d, i) => {
      lists.diagnostics[next.diagnosticsAt + i] = d;
    });
  }
  return lists;
}

/** What the loop keeps between one compiler's runs (on AssembleMemo). */
export class UnitLoopMemo {
  private last?: {
    readonly units: readonly CapabilityUnit[];
    readonly results: AssembleInput['results'];
    readonly schemas: AssembleInput['schemas'];
    readonly shares: Share[];
    readonly lists: UnitLists;
  };
  /** Each unit's position in the last unit list (built on the first delta of a list). */
  private index?: { readonly units: readonly CapabilityUnit[]; readonly at: Map<CapabilityUnit, number> };

  /**
   * The lists for this run, for the caller to append to. `input.changed`: the units whose
   * results the parse stage replaced since the last run on the same results and outcomes maps
   * (which watch mode patches in place); undefined: any unit may have changed, the full loop.
   */
  lists(input: AssembleInput, memos: AssembleMemo): UnitLists {
    const last = this.last;
    this.last = undefined;
    const { units, results, schemas, changed } = input;
    let shares: Share[];
    let lists: UnitLists | undefined;
    if (last && changed && last.units === units && last.results === results && last.schemas === schemas) {
      shares = last.shares;
      const changes = this.positions(units, changed).map((i) => {
        const next = shareOf(units[i]!, input, memos);
        const old = shares[i]!;
        shares[i] = next;
        return [old, next] as const;
      });
      lists = patched(last.lists, changes) ?? gather(shares);
    } else {
      shares = units.map((unit) => shareOf(unit, input, memos));
      lists = gather(shares);
    }
    this.last = { units, results, schemas, shares, lists };
    return copy(lists);
  }

  private positions(units: readonly CapabilityUnit[], changed: ReadonlySet<CapabilityUnit>): number[] {
    if (changed.size === 0) return [];
    if (this.index?.units !== units) this.index = { units, at: new Map(units.map((unit, i) => [unit, i])) };
    const out: number[] = [];
    for (const unit of changed) {
      const i = this.index.at.get(unit);
      if (i !== undefined) out.push(i);
    }
    return out;
  }
}

/** The caller's lists: assembly appends to them (plugin entries' tools, diagnostics). */
function copy(lists: UnitLists): UnitLists {
  return {
    tools: lists.tools.slice(),
    parsedSkills: lists.parsedSkills.slice(),
    agents: lists.agents.slice(),
    promptSections: lists.promptSections.slice(),
    hooks: lists.hooks.slice(),
    platformRefs: lists.platformRefs.slice(),
    diagnostics: lists.diagnostics.slice(),
  };
}
