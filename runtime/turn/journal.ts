/**
 * The turn journal (docs/runtime.md): an append-only record of every tool call. An unknown (or
 * inaccessible) tool yields only `tool_denied`; every `tool_call` gets exactly one terminal
 * entry. The journal records what really happened: a tool that ignored an abort and finished
 * is journaled as `tool_result` (flagged `afterAbort`) even though the caller was told
 * `cancelled`. Entries are deep-frozen snapshots (runtime/turn/snapshot.ts states the rule for values
 * that are not JSON data).
 */
import { snapshot } from './snapshot.js';

/** Which gate said no. `capability`: unknown or inaccessible (indistinguishable on purpose). */
export type DenialPolicy = 'capability' | 'approval' | 'hook';

export type ToolErrorCode = 'invalid_input' | 'load_failed' | 'execution_error' | 'unavailable';

export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  /** JSON-pointer-like path of the offending input (`/city`, `(root)`), for `invalid_input`. */
  readonly path?: string;
}

export type ToolOutcome =
  | { readonly status: 'completed'; readonly output: unknown; readonly durationMs: number }
  | { readonly status: 'denied'; readonly policy: DenialPolicy; readonly reason: string }
  | { readonly status: 'cancelled'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: ToolError; readonly retryable: boolean };

interface EntryBase {
  /** Position in this turn's journal, from 0. */
  readonly seq: number;
  readonly toolName: string;
  readonly toolUseId: string;
  readonly turnId: string;
  readonly generation: number;
  /** Wall-clock time the entry was written (ms since epoch). */
  readonly at: number;
}

interface TerminalTiming {
  /** Milliseconds since the call's `tool_call` entry (0 when there was none). */
  readonly durationMs: number;
}

export type ToolCallEntry = EntryBase & {
  readonly type: 'tool_call';
  readonly input: unknown;
  readonly owner: string;
  readonly source: string;
  /**
   * The manifest that served the call (`Generation.manifestHash`, the catalog's `manifestHash`);
   * absent in entries an earlier runtime wrote to a shared store.
   */
  readonly manifest?: string;
};
export type ToolResultEntry = EntryBase &
  TerminalTiming & {
    readonly type: 'tool_result';
    readonly output: unknown;
    /** Time spent inside `execute`. */
    readonly executionMs: number;
    /** The call was aborted but the tool finished anyway; the caller was told `cancelled`. */
    readonly afterAbort: boolean;
  };
export type ToolDeniedEntry = EntryBase &
  TerminalTiming & { readonly type: 'tool_denied'; readonly policy: DenialPolicy; readonly reason: string };
export type ToolFailedEntry = EntryBase &
  TerminalTiming & { readonly type: 'tool_failed'; readonly error: ToolError; readonly retryable: boolean };
export type ToolCancelledEntry = EntryBase &
  TerminalTiming & { readonly type: 'tool_cancelled'; readonly reason: string };

export type JournalEntry = ToolCallEntry | ToolResultEntry | ToolDeniedEntry | ToolFailedEntry | ToolCancelledEntry;
export type JournalEntryType = JournalEntry['type'];

/** Distributive Omit, so each union member keeps its own fields. */
export type JournalEntryInit = JournalEntry extends infer E
  ? E extends JournalEntry
    ? Omit<E, keyof EntryBase>
    : never
  : never;

/** Which turn a journal entry belongs to, as a sink sees it. */
export interface JournalTurnInfo {
  readonly sessionKey: string;
  readonly traceId: string;
  /** The turn's principal (`TurnInput.principal`, or the message sender). */
  readonly principal?: unknown;
}

/**
 * Host-level observer of every turn's journal (persistence, tracing). Called synchronously as each
 * entry is appended: a sink that writes to a store buffers (docs/stores.md), so it never blocks
 * or fails a tool call; its errors only reach `onError`.
 */
export interface JournalSink {
  record(entry: JournalEntry, turn: JournalTurnInfo): void | Promise<void>;
}

export function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}

export class TurnJournal {
  readonly #entries: JournalEntry[] = [];
  readonly #view: readonly JournalEntry[];

  constructor(
    private readonly turn: JournalTurnInfo & { readonly turnId: string },
    private readonly sink: JournalSink | undefined,
    private readonly onError: (error: Error) => void,
  ) {
    // Callers get a live read-only view; only the pipeline appends.
    this.#view = new Proxy(this.#entries, {
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    }) as readonly JournalEntry[];
  }

  get entries(): readonly JournalEntry[] {
    return this.#view;
  }

  append(
    base: { readonly toolName: string; readonly toolUseId: string; readonly generation: number },
    init: JournalEntryInit,
  ): JournalEntry {
    // A deep snapshot, not a shallow freeze: an entry shares no object with the caller's input
    // or the tool's output, so changing those afterwards cannot rewrite the audit trail.
    const entry = snapshot({
      seq: this.#entries.length,
      toolName: base.toolName,
      toolUseId: base.toolUseId,
      turnId: this.turn.turnId,
      generation: base.generation,
      at: Date.now(),
      ...init,
    }) as JournalEntry;
    this.#entries.push(entry);
    if (this.sink) {
      try {
        const { sessionKey, traceId, principal } = this.turn;
        const pending = this.sink.record(entry, {
          sessionKey,
          traceId,
          ...(principal !== undefined ? { principal } : {}),
        });
        if (pending && typeof (pending as Promise<void>).catch === 'function') {
          (pending as Promise<void>).catch((error: unknown) => this.onError(toError(error, 'journal sink')));
        }
      } catch (error) {
        this.onError(toError(error, 'journal sink'));
      }
    }
    return entry;
  }
}

function toError(error: unknown, where: string): Error {
  return new Error(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
