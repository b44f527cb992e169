/**
 * What the durable stores share (docs/stores.md): the store bundle a host spreads into
 * `createCapabilityHost`, the journal row as stored and read back, the JSON encoding of journal
 * entries with the check that decides a stored row is corrupt, the check for entries missing
 * inside a turn, and the timeout that turns a
 * store that hangs into a store that failed (which the runtime then treats as "not approved" /
 * "empty snapshot").
 */
import type {
  ApprovalMemory,
  DeferredToolSessionStore,
  JournalEntry,
  JournalEntryType,
  JournalSink,
} from '../index.js';
import type { BufferedJournalSink } from './journal-buffer.js';

/** `once` approvals in a store: expiry by the store's `approvalTtlMs`, revocation per session. */
export interface ApprovalStore extends ApprovalMemory {
  has(scopeKey: string): Promise<boolean>;
  remember(scopeKey: string): Promise<void>;
  forgetSession(sessionKey: string): Promise<void>;
}

/** One journal entry as a store holds it: the entry and the turn it belongs to. */
export interface StoredJournalEntry {
  readonly entry: JournalEntry;
  readonly sessionKey: string;
  readonly traceId: string;
  readonly principal?: unknown;
}

export interface JournalReadResult {
  /** In journal order: per turn by `seq`, per session in the order they were written. */
  readonly entries: readonly StoredJournalEntry[];
  /** Rows that were not a journal entry, with the reason; never trusted, never returned. */
  readonly ignored: readonly string[];
}

export interface JournalStore {
  /** Pass it as the host's `journal`: buffers, never blocks or fails a tool call. */
  readonly sink: BufferedJournalSink;
  readTurn(turnId: string): Promise<JournalReadResult>;
  /** The newest `limit` entries of a session (default 1000), oldest first. */
  readSession(sessionKey: string, options?: { readonly limit?: number }): Promise<JournalReadResult>;
}

/** The three stores of one backend. */
export interface DurableStores {
  readonly sessions: DeferredToolSessionStore;
  readonly approvals: ApprovalStore;
  readonly journal: JournalStore;
  /** `createCapabilityHost({ ...stores.host, ... })`. */
  readonly host: {
    readonly sessions: DeferredToolSessionStore;
    readonly approvalMemory: ApprovalMemory;
    readonly journal: JournalSink;
  };
}

/** Thrown for a stored value that is not what the store wrote; the runtime records and ignores it. */
export class CorruptStoreValueError extends Error {
  override readonly name = 'CorruptStoreValueError';
}

export const ENTRY_TYPES: ReadonlySet<JournalEntryType> = new Set([
  'tool_call',
  'tool_result',
  'tool_denied',
  'tool_failed',
  'tool_cancelled',
]);

/** Fails `run` after `ms`: a store that hangs is a store that failed. */
export function withTimeout<T>(run: () => Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * JSON of a value the journal recorded. JSON has no bigint, `undefined` member or cycle: bigints
 * become placeholders like the journal's own, and a value that still cannot be written is stored
 * as `{ $unrecorded: … }` rather than failing the write.
 */
export function encodeJson(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) =>
        typeof item === 'bigint' ? { $unrecorded: `bigint ${item.toString()}` } : item,
      ) ?? 'null'
    );
  } catch (error) {
    return JSON.stringify({ $unrecorded: `not serialisable: ${messageOf(error)}` });
  }
}

/** The entry with its input / output encoded separately, so one bad value keeps the rest. */
export function encodeEntry(entry: JournalEntry): string {
  const text = encodeJson(entry);
  if (!text.includes('"$unrecorded":"not serialisable')) return text;
  const { input, output, ...rest } = entry as JournalEntry & { input?: unknown; output?: unknown };
  const fields: Record<string, unknown> = { ...rest };
  if ('input' in entry) fields['input'] = JSON.parse(encodeJson(input)) as unknown;
  if ('output' in entry) fields['output'] = JSON.parse(encodeJson(output)) as unknown;
  return encodeJson(fields);
}

/** A stored entry, or the reason it is not one. */
export function decodeEntry(text: unknown, where: string): JournalEntry | string {
  if (typeof text !== 'string') return `${where}: entry is not text`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${where}: entry is not JSON (${messageOf(error)})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where}: entry is not an object`;
  const raw = value as Record<string, unknown>;
  if (!ENTRY_TYPES.has(raw['type'] as JournalEntryType)) return `${where}: unknown entry type ${String(raw['type'])}`;
  if (!Number.isSafeInteger(raw['seq']) || (raw['seq'] as number) < 0) return `${where}: seq is not an integer`;
  for (const field of ['turnId', 'toolName', 'toolUseId'] as const)
    if (typeof raw[field] !== 'string') return `${where}: ${field} is not a string`;
  for (const field of ['at', 'generation'] as const)
    if (typeof raw[field] !== 'number') return `${where}: ${field} is not a number`;
  return deepFreeze(raw) as unknown as JournalEntry;
}

/** A principal as stored (JSON text or absent). */
export function decodePrincipal(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return deepFreeze(JSON.parse(text) as unknown);
  } catch {
    return Object.freeze({ $unrecorded: 'principal is not JSON' });
  }
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}

/** A stored `seq` (a number, or the decimal text Redis holds), or `undefined`. */
const seqOf = (value: unknown): number | undefined => {
  const seq = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : undefined;
};

/**
 * The entries missing inside each turn of a read, as `ignored` notes. A turn's journal numbers
 * its entries from 0 without a gap, and the sink stores a turn only as an unbroken prefix, so a
 * gap is entries that never reached the store (a writer that kept no such rule, e.g. an older
 * runtime, or rows removed by hand): the read says so rather than show a result with no call.
 * `wholeTurn`: the read holds every row of the turn, so a gap from seq 0 counts too (a session
 * read's window may begin inside a turn). `rows`: every row of the read, entries or not.
 */
export function seqGaps(
  where: (turnId: string) => string,
  rows: Iterable<{ readonly turnId: unknown; readonly seq: unknown }>,
  wholeTurn: boolean,
): string[] {
  const turns = new Map<string, Set<number>>();
  for (const row of rows) {
    const seq = seqOf(row.seq);
    if (typeof row.turnId !== 'string' || seq === undefined) continue;
    const seqs = turns.get(row.turnId) ?? new Set<number>();
    turns.set(row.turnId, seqs.add(seq));
  }
  const notes: string[] = [];
  for (const [turnId, seqs] of turns) {
    const sorted = [...seqs].sort((a, b) => a - b);
    let next = wholeTurn ? 0 : sorted[0]!;
    for (const seq of sorted) {
      if (seq > next)
        notes.push(
          `${where(turnId)}: seq ${next === seq - 1 ? next : `${next}-${seq - 1}`} missing (never stored, or trimmed since)`,
        );
      next = seq + 1;
    }
  }
  return notes;
}

/** Positive integer option or the default; a bad value is the host's bug, reported at once. */
export function positive(value: number | undefined, name: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`${name} must be a positive integer (milliseconds or a count), got ${String(value)}`);
  return value;
}
