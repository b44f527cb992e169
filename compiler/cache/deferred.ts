/**
 * A cached unit whose body has not been read (cache/unit-record.ts): its result and schema
 * outcome as objects that answer from the record and read the entry's body only for what the
 * record does not hold. The body is read once, on first use, through the unit cache, which
 * keeps it (cache/units.ts `bodyOf`).
 */
import type { UnitResult } from '../parse/units.js';
import type { JsonSchema, SchemaOutcome } from '../schema/types.js';
import { LostCacheBody } from './lost-body.js';
import type { Entry } from './unit-entry.js';
import type { OutcomeRecord, UnitRecord } from './unit-record.js';

export class DeferredResult implements UnitResult {
  constructor(
    readonly record: UnitRecord,
    private readonly body: () => Entry,
  ) {}

  get data(): UnitResult['data'] {
    return this.record.data ?? this.body().result.data;
  }

  get diagnostics(): UnitResult['diagnostics'] {
    return this.record.diagnostics;
  }

  get dependencies(): UnitResult['dependencies'] {
    return this.record.dependencies;
  }
}

type Ok = Extract<OutcomeRecord, { ok: true }>;

/** A successful outcome whose schema stays in the body until read. */
export class DeferredSchema {
  readonly ok = true;
  readonly origin: Ok['origin'];
  readonly via: Ok['via'];
  declare readonly sources?: readonly string[];
  /** The keywords of the schema a provider rejects (cache/unit-record.ts), from the record. */
  readonly keywords: readonly string[];
  /** The validator key and the versions it was taken with (cache/unit-record.ts), from the record. */
  declare readonly validator?: Ok['validator'];

  constructor(
    record: Ok,
    private readonly body: () => Entry,
  ) {
    this.origin = record.origin;
    this.via = record.via;
    if (record.sources !== undefined) (this as { sources?: readonly string[] }).sources = record.sources;
    this.keywords = record.keywords;
    if (record.validator !== undefined) (this as { validator?: Ok['validator'] }).validator = record.validator;
  }

  get schema(): JsonSchema {
    const outcome = this.body().schema;
    // The record was taken from this entry: its outcome is the one recorded.
    if (!outcome?.ok) throw new LostCacheBody("a unit cache entry's schema");
    return outcome.schema;
  }
}

/** The outcome a record stands for: failed ones are whole in the record. */
export function deferredOutcome(record: OutcomeRecord | undefined, body: () => Entry): SchemaOutcome | undefined {
  if (record === undefined) return undefined;
  return record.ok ? new DeferredSchema(record, body) : record;
}

/** The record behind a result, when it is a deferred one. */
export function recordOfResult(result: UnitResult | undefined): UnitRecord | undefined {
  return result instanceof DeferredResult ? result.record : undefined;
}

/** The result's kind, without reading a deferred result's body. */
export function kindOfResult(result: UnitResult | undefined): string | undefined {
  return result instanceof DeferredResult ? result.record.kind : result?.data?.kind;
}
