/**
 * A tool's model made from its unit's cache record (cache/unit-record.ts) rather than its body:
 * every field the tree-wide rules and emit read of every tool is set at once, and the three that
 * only a diagnostic about the tool or its re-rendered line reads (the description's and the
 * schema's locations, the schema) come from the body when first read. Its JSON is the plain
 * model's (`toJSON`), so nothing that serialises a model can tell the two apart.
 */
import type { SourceLocation, ToolModel } from '../model.js';
import type { ToolUnitData, UnitResult } from '../parse/units.js';
import type { CapabilityUnit } from '../scan/layout.js';
import { EMPTY_INPUT_SCHEMA } from '../schema/empty.js';
import type { JsonSchema, SchemaOutcome } from '../schema/types.js';
import { toolQualifiedName } from '@zhin-gen/runtime/names';
import { DeferredSchema } from '../cache/deferred.js';
import { LostCacheBody } from '../cache/lost-body.js';
import type { ToolRecord } from '../cache/unit-record.js';
import type { Writable } from '../util/writable.js';
import { isTypedSource } from '../util/typed-source.js';
import { validatorVersionsKey } from '../emit/validators.js';

/** Where a capability sits (owner, placement, enclosing agent / skill), from its unit. */
export function enclosureOf(unit: CapabilityUnit): Enclosure {
  // Assigned, not spread (util/writable.ts): one per capability each assembly.
  const enclosure: Writable<Enclosure> = { owner: unit.owner, placement: unit.placement };
  if (unit.agent !== undefined) enclosure.agent = unit.agent;
  if (unit.skill !== undefined && unit.kind !== 'skill') enclosure.skill = unit.skill;
  return enclosure;
}

/** Where a capability sits: its owner, its placement, and the agent and skill around it. */
export interface Enclosure {
  readonly owner: string;
  readonly placement: CapabilityUnit['placement'];
  readonly agent?: string;
  readonly skill?: string;
}

/** The plain model of a tool unit (keys in the order every model of it has). */
export function plainToolModel(
  unit: CapabilityUnit,
  data: ToolUnitData,
  outcome: SchemaOutcome | undefined,
  hash: string,
  source: string,
): ToolModel {
  const enclosure = enclosureOf(unit);
  // Assigned in key order, not spread (util/writable.ts): one per tool of a cold run.
  const model = { kind: 'tool', owner: enclosure.owner, placement: enclosure.placement } as Writable<ToolModel>;
  if (enclosure.agent !== undefined) model.agent = enclosure.agent;
  if (enclosure.skill !== undefined) model.skill = enclosure.skill;
  model.localName = unit.name;
  model.qualifiedName = toolQualifiedName(enclosure, unit.name);
  model.source = source;
  model.related = unit.files.filter((f) => f !== unit.entry);
  model.loc = data.loc;
  if (data.descriptionLoc) model.descriptionLoc = data.descriptionLoc;
  if (data.schemaLoc) model.schemaLoc = data.schemaLoc;
  model.description = data.description;
  model.inputSchema = outcome?.ok ? outcome.schema : EMPTY_INPUT_SCHEMA;
  model.schemaOrigin = outcome?.ok ? outcome.origin : 'none';
  model.schemaVia = outcome?.ok ? outcome.via : 'none';
  model.requiresApproval = data.requiresApproval;
  model.platforms = data.platforms.map((p) => p.value);
  model.scopes = data.scopes;
  model.permissions = data.permissions;
  model.hidden = data.hidden;
  model.keywords = data.keywords;
  model.tags = data.tags;
  model.conditional = false;
  model.typed = isTypedSource(source);
  model.hash = hash;
  return model;
}

export class RecordToolModel implements ToolModel {
  readonly kind = 'tool';
  readonly owner: string;
  readonly placement: ToolModel['placement'];
  declare readonly agent?: string;
  declare readonly skill?: string;
  readonly localName: string;
  readonly qualifiedName: string;
  readonly source: string;
  readonly related: readonly string[];
  readonly loc: SourceLocation;
  readonly description: string;
  readonly schemaOrigin: ToolModel['schemaOrigin'];
  readonly schemaVia: ToolModel['schemaVia'];
  readonly requiresApproval: ToolModel['requiresApproval'];
  readonly platforms: readonly string[];
  readonly scopes: ToolModel['scopes'];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly conditional = false;
  readonly typed: boolean;

  constructor(
    private readonly unit: CapabilityUnit,
    enclosure: Enclosure,
    record: ToolRecord,
    /** The unit's deferred result: its body holds what the record leaves out. */
    private readonly result: UnitResult,
    private readonly outcome: SchemaOutcome | undefined,
    readonly hash: string,
  ) {
    this.owner = enclosure.owner;
    this.placement = enclosure.placement;
    const self = this as { agent?: string; skill?: string };
    if (enclosure.agent !== undefined) self.agent = enclosure.agent;
    if (enclosure.skill !== undefined) self.skill = enclosure.skill;
    this.localName = unit.name;
    this.qualifiedName = toolQualifiedName(enclosure, unit.name);
    this.source = unit.entry ?? unit.dir;
    this.related = unit.files.filter((f) => f !== unit.entry);
    this.loc = record.loc;
    this.description = record.description;
    this.schemaOrigin = outcome?.ok ? outcome.origin : 'none';
    this.schemaVia = outcome?.ok ? outcome.via : 'none';
    this.requiresApproval = record.requiresApproval;
    this.platforms = record.platforms.map((p) => p.value);
    this.scopes = record.scopes;
    this.permissions = record.permissions;
    this.hidden = record.hidden;
    this.keywords = record.keywords;
    this.tags = record.tags;
    this.typed = isTypedSource(this.source);
  }

  private data(): ToolUnitData {
    const data = this.result.data;
    if (data?.kind !== 'tool') throw new LostCacheBody('a tool entry its record describes');
    return data;
  }

  get descriptionLoc(): SourceLocation | undefined {
    return this.data().descriptionLoc;
  }

  get schemaLoc(): SourceLocation | undefined {
    return this.data().schemaLoc;
  }

  get inputSchema(): JsonSchema {
    return this.outcome?.ok ? this.outcome.schema : EMPTY_INPUT_SCHEMA;
  }

  /** The schema keywords some provider rejects, when the record has them (validate/providers.ts). */
  get schemaKeywords(): readonly string[] | undefined {
    return this.outcome instanceof DeferredSchema ? this.outcome.keywords : undefined;
  }

  /** The generated validator's key, when the record has it for this emitter and Ajv. */
  get validatorKey(): string | undefined {
    const recorded = this.outcome instanceof DeferredSchema ? this.outcome.validator : undefined;
    return recorded && recorded.versions === validatorVersionsKey() ? recorded.key : undefined;
  }

  toJSON(): ToolModel {
    return plainToolModel(this.unit, this.data(), this.outcome, this.hash, this.source);
  }
}

/** A tool's validator key without reading its schema, when its record has it (emit/tool-table.ts). */
export function recordedValidatorKey(tool: ToolModel): string | undefined {
  return tool instanceof RecordToolModel ? tool.validatorKey : undefined;
}

/** The rejected keywords of a tool schema without reading it, when the tool was made from its record. */
export function keywordsOf(tool: ToolModel): readonly string[] | undefined {
  return tool instanceof RecordToolModel ? tool.schemaKeywords : undefined;
}
