/**
 * Deep-frozen snapshots of what the journal records (tool inputs, outputs) and of what the
 * pipeline hands to observers (hooks, risk policies, the approval port). A snapshot shares no
 * mutable object with the value it was taken from, so nobody can rewrite the audit trail or the
 * validated input after the fact.
 *
 * The rule, for values that are not plain JSON data:
 * - primitives (including `undefined`, `NaN`, bigint, symbol) are kept: they are immutable;
 * - arrays and plain objects (prototype `Object.prototype` or `null`) are copied and frozen;
 *   only own enumerable string keys are kept (as `JSON.stringify` and spread do), holes read as
 *   `undefined`, and shared or circular references stay shared or circular in the copy;
 * - anything else (functions, class instances, `Date`, `Map`, errors, typed arrays, promises…)
 *   and any property whose read throws becomes an `UnrecordedValue`
 *   `{ $unrecorded: 'Date 2024-01-01T00:00:00.000Z' }`: such values cannot be frozen (a frozen
 *   `Map` or `Date` still changes through its methods), so only a description is recorded.
 * The walk is iterative: input nested thousands of levels deep cannot overflow the stack.
 */

/** What the journal records in place of a value that is not JSON-like data. */
export interface UnrecordedValue {
  readonly $unrecorded: string;
}

/** Every container a snapshot produced: taking a snapshot of a snapshot returns it unchanged. */
const snapshots = new WeakSet<object>();

type Container = Record<string, unknown> | unknown[];

interface Pending {
  readonly target: Container;
  readonly entries: readonly (readonly [string, unknown])[];
}

export function snapshot<T>(value: T): T;
export function snapshot(value: unknown): unknown {
  const copies = new Map<object, unknown>();
  const pending: Pending[] = [];

  // Copies one value: primitives as they are, containers as empty copies filled in below.
  const copy = (input: unknown): unknown => {
    if (typeof input !== 'object' && typeof input !== 'function') return input;
    if (input === null) return null;
    if (snapshots.has(input)) return input;
    const seen = copies.get(input);
    if (seen !== undefined) return seen;
    let entries: (readonly [string, unknown])[];
    let array: boolean;
    try {
      if (typeof input === 'function' || !isPlainData(input)) return remember(input, unrecorded(describe(input)));
      array = Array.isArray(input);
      entries = readEntries(input);
    } catch (error) {
      // A hostile proxy can throw from any trap; what it holds cannot be recorded.
      return remember(input, unrecorded(`unreadable value: ${messageOf(error)}`));
    }
    const target: Container = array ? [] : {};
    remember(input, target);
    pending.push({ target, entries });
    return target;
  };
  const remember = (input: object, copied: unknown): unknown => {
    copies.set(input, copied);
    return copied;
  };

  const root = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const [key, child] of next.entries) {
      // defineProperty, not assignment: an own `__proto__` key (JSON.parse makes those) stays data.
      Object.defineProperty(next.target, key, { value: copy(child), enumerable: true, writable: true, configurable: true });
    }
    snapshots.add(Object.freeze(next.target));
  }
  return root;
}

function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Reads a container's entries once (getters run here, exactly once). A throwing read is recorded, not thrown. */
function readEntries(value: object): (readonly [string, unknown])[] {
  const entries: (readonly [string, unknown])[] = [];
  const source = value as Record<string, unknown>;
  const keys = Array.isArray(value) ? Array.from({ length: value.length }, (_, index) => String(index)) : Object.keys(value);
  for (const key of keys) {
    let child: unknown;
    try {
      child = source[key];
    } catch (error) {
      child = unrecorded(`unreadable property: ${messageOf(error)}`);
    }
    entries.push([key, child]);
  }
  return entries;
}

function unrecorded(description: string): UnrecordedValue {
  const placeholder = Object.freeze({ $unrecorded: description });
  snapshots.add(placeholder);
  return placeholder;
}

function describe(value: object): string {
  try {
    if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Date (invalid)' : `Date ${value.toISOString()}`;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (value instanceof Map || value instanceof Set) return `${value.constructor.name} (${value.size} entries)`;
    const name = (value.constructor as { readonly name?: unknown } | undefined)?.name;
    return typeof name === 'string' && name !== '' ? `${name} instance` : 'object';
  } catch {
    return 'object';
  }
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'unknown error';
  }
}
