/**
 * A unit's record: the part of its cache entry a run needs when the unit did not change, kept in
 * the cache index (cache/index-file.ts) beside the entry's file stamps. A run that re-parses one
 * tool reads the index and these records instead of every entry's body (~2.6 KB a tool: 50 MB
 * at 20,000 tools): what assembly, the name and provider rules, the schema stage and the parse
 * stage's file index read of an unchanged unit is here. The rest (locations of the description
 * and the schema, the schema itself, a non-tool unit's data) is read from the entry's body only
 * when something asks for it (cache/deferred.ts), which for a one-tool edit is the tools of the
 * shard emit re-renders.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { ToolUnitData, UnitData } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import { schemaKeywords } from '../validate/schema-keywords.js';
import { PROVIDER_PROFILES } from '../validate/providers.js';
import { json } from '../emit/literal.js';
import { validatorKey, validatorVersionsKey } from '../emit/validators.js';
import type { Entry } from './unit-entry.js';
import type { Writable } from '../util/writable.js';

/** Of a tool's parse data, what its model takes besides the schema and two locations. */
export type ToolRecord = Pick<
  ToolUnitData,
  'loc' | 'description' | 'requiresApproval' | 'platforms' | 'scopes' | 'permissions' | 'hidden' | 'keywords' | 'tags'
>;

/** A schema outcome without the schema: its origin, and the keywords the schema uses. */
export type OutcomeRecord =
  | {
      readonly ok: true;
      readonly origin: Extract<SchemaOutcome, { ok: true }>['origin'];
      readonly via: Extract<SchemaOutcome, { ok: true }>['via'];
      readonly sources?: readonly string[];
      /** The keywords of the schema some provider profile rejects (validate/providers.ts), usually none. */
      readonly keywords: readonly string[];
      /**
       * A JSON Schema's validator key (emit/validator-table.ts), beside the key of an empty text,
       * which stands for the emitter and Ajv versions the key was taken with.
       */
      readonly validator?: { readonly versions: string; readonly key: string };
    }
  | Extract<SchemaOutcome, { ok: false }>;

export interface UnitRecord {
  /** The data's kind; absent when the unit has no data (too broken to take part). */
  readonly kind?: UnitData['kind'];
  readonly diagnostics: readonly Diagnostic[];
  readonly dependencies: readonly string[];
  readonly resultPrint?: string;
  readonly schemaPrint?: string;
  readonly tool?: ToolRecord;
  /** A unit that is not a tool (skills, agents, sections, hooks, plugin entries: a few per tree) has its data whole. */
  readonly data?: Exclude<UnitData, ToolUnitData>;
  /** The entry's schema outcome, when it has one. */
  readonly outcome?: OutcomeRecord;
}

/** The record of an entry (taken when the index is written). */
export function recordOf(entry: Entry): UnitRecord {
  const { result, schema } = entry;
  const data = result.data;
  const tool: ToolRecord | undefined =
    data?.kind === 'tool'
      ? {
          loc: data.loc,
          description: data.description,
          requiresApproval: data.requiresApproval,
          platforms: data.platforms,
          scopes: data.scopes,
          permissions: data.permissions,
          hidden: data.hidden,
          keywords: data.keywords,
          tags: data.tags,
        }
      : undefined;
  // Assigned in key order, not spread (util/writable.ts): one of these per unit each index write.
  const record: Writable<UnitRecord> = {} as Writable<UnitRecord>;
  if (data) record.kind = data.kind;
  record.diagnostics = result.diagnostics;
  record.dependencies = result.dependencies;
  if (entry.resultPrint !== undefined) record.resultPrint = entry.resultPrint;
  if (entry.schemaPrint !== undefined) record.schemaPrint = entry.schemaPrint;
  if (tool) record.tool = tool;
  if (data && data.kind !== 'tool') record.data = data;
  if (schema) record.outcome = outcomeRecord(schema);
  return record;
}

function outcomeRecord(outcome: SchemaOutcome): OutcomeRecord {
  if (!outcome.ok) return outcome;
  const record: Writable<Extract<OutcomeRecord, { ok: true }>> = {
    ok: true,
    origin: outcome.origin,
    via: outcome.via,
  } as Writable<Extract<OutcomeRecord, { ok: true }>>;
  if (outcome.sources !== undefined) record.sources = outcome.sources;
  record.keywords = schemaKeywords(outcome.schema).filter((k) => REJECTED.has(k));
  // What emit keys the generated validator by (a tool of a cache record is never conditional).
  if (outcome.origin !== 'zod')
    record.validator = { versions: validatorVersionsKey(), key: validatorKey(json(outcome.schema)) };
  return record;
}

/** The keywords any provider profile rejects: the only ones the provider checks look for. */
const REJECTED = new Set(Object.values(PROVIDER_PROFILES).flatMap((p) => p.unsupportedKeywords));
