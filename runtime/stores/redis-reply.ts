/**
 * Replies of the Redis store's scripts (runtime/stores/redis.ts) read as data: text, flat field
 * lists, journal rows and why a row has no entry. Anything not of the expected shape is corrupt.
 */
import { CorruptStoreValueError } from './shared.js';

export type Reply = readonly unknown[];

export const asArray = (value: unknown, what: string): Reply => {
  if (!Array.isArray(value)) throw new CorruptStoreValueError(`${what}: unexpected reply from Redis`);
  return value;
};
/** A stream entry id; a turn hash holds one per entry still in the stream. */
export const STREAM_ID = /^\d+-\d+$/;

/** A row of a journal read: where it is, its fields, or why it has none. */
export interface Row {
  readonly where: string;
  readonly fields?: Record<string, string> | undefined;
  readonly missing?: string;
  /** The turn and seq the row was read for (a turn's index): the entry must be that one. */
  readonly expect?: { readonly turnId: string; readonly seq: number };
}
/** Why a turn's index entry has no stream entry (JOURNAL_TURN puts `trimmed` / `expired` for the id). */
export const missingBecause = (id = '', streamType: unknown): string =>
  id === 'trimmed'
    ? 'trimmed (journalMaxLenPerSession or journalTtlMs)'
    : id === 'expired'
      ? 'older than journalTtlMs'
      : !STREAM_ID.test(id) || id.startsWith('invalid:')
        ? `"${id.replace(/^invalid:/, '').slice(0, 40)}" is not a stream id`
        : `missing (${streamType === 'stream' ? 'not in the stream' : 'the stream is gone'})`;

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : value instanceof Uint8Array ? new TextDecoder().decode(value) : undefined;

/** A flat `[field, value, …]` reply as an object (string values only). */
export function fieldsOf(value: unknown): Record<string, string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < value.length; i += 2) {
    const key = text(value[i]);
    const item = text(value[i + 1]);
    if (key !== undefined && item !== undefined) out[key] = item;
  }
  return out;
}
