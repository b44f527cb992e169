/**
 * Deep-frozen snapshots of what the journal records (tool inputs, outputs) and of what the
 * pipeline hands to observers (hooks, risk policies, the approval port). A snapshot shares no
 * mutable object with the value it was taken from, so nobody can rewrite the audit trail or the
 * validated input after the fact.
 *
 * The rule, for values that are not plain JSON data:
 * - primitives (including `undefined`, `NaN`, bigint, symbol) are kept: they are immutable;
 * - arrays and plain objects (prototype `Object.prototype` or `null`) are copied and frozen;
 *   only own enumerable string keys are kept (as spread does; array holes stay holes, a
 *   null-prototype object becomes an ordinary one), and shared or circular references stay
 *   shared or circular in the copy;
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

/** The roots of snapshots (and placeholders): a snapshot of a snapshot is the snapshot itself. */
const snapshots = new WeakSet<object>();

type Container = Record<string, unknown>;

interface Pending {
  readonly source: Container;
  readonly target: Container;
  readonly keys: readonly string[];
}

export function snapshot<T>(value: T): T;
export function snapshot(value: unknown): unknown {
  if (typeof value !== 'object' || value === null)
    return typeof value === 'function' ? unrecorded(describe(value)) : value;
  if (snapshots.has(value)) return value;
  const copies = new Map<object, unknown>();
  const pending: Pending[] = [];

  // Copies one value: primitives as they are, containers as empty copies filled in below.
  const copy = (input: unknown): unknown => {
    if (typeof input !== 'object' && typeof input !== 'function') return input;
    if (input === null) return null;
    if (snapshots.has(input)) return input;
    const seen = copies.get(input);
    if (seen !== undefined) return seen;
    let keys: readonly string[];
    let target: Container;
    try {
      if (typeof input === 'function' || !isPlainData(input)) return remember(input, unrecorded(describe(input)));
      keys = Object.keys(input);
      target = Array.isArray(input) ? (new Array<unknown>((input as unknown[]).length) as unknown as Container) : {};
    } catch (error) {
      // A hostile proxy can throw from any trap; what it holds cannot be recorded.
      return remember(input, unrecorded(`unreadable value: ${messageOf(error)}`));
    }
    remember(input, target);
    pending.push({ source: input as Container, target, keys });
    return target;
  };
  const remember = (input: object, copied: unknown): unknown => {
    copies.set(input, copied);
    return copied;
  };

  const root = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { source, target, keys } = next;
    for (const key of keys) {
      let child: unknown;
      try {
        child = source[key];
      } catch (error) {
        child = unrecorded(`unreadable property: ${messageOf(error)}`);
      }
      // An own `__proto__` key (JSON.parse makes those) must stay data, not set the prototype.
      if (key === '__proto__')
        Object.defineProperty(target, key, {
          value: copy(child),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else target[key] = copy(child);
    }
    Object.freeze(target);
  }
  if (typeof root === 'object' && root !== null) snapshots.add(root);
  return root;
}

function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
