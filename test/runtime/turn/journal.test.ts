/**
 * The journal is an audit trail: nothing done after the fact — by the caller, the tool, a hook,
 * a risk policy or the approval port — may change what it records or what the tool runs with.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCapabilityHost,
  type ApprovalPort,
  type JournalEntry,
  type RiskPolicy,
  type ToolCallEntry,
  type ToolResultEntry,
  type UnrecordedValue,
} from '../../../runtime/index.js';
import { Fixture, deferred, events, manifest, resetGlobals } from '../fixture.js';

declare global {
  var __kept: { items: number[]; label: string } | undefined;
}

const fx = new Fixture('journal-snapshot');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const types = (journal: readonly JournalEntry[]) => journal.map((entry) => entry.type);
const callEntry = (journal: readonly JournalEntry[]) => journal[0] as ToolCallEntry;
const resultEntry = (journal: readonly JournalEntry[]) => journal[1] as ToolResultEntry;

/** True when every object reachable from `value` is frozen (iterative: inputs may be deep). */
function deeplyFrozen(value: unknown): boolean {
  const stack = [value];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    if (!Object.isFrozen(next)) return false;
    stack.push(...Object.values(next));
  }
  return true;
}

const echo = fx.toolModule('echo');
// A Zod schema: validation returns a fresh object, the case where the approval port used to
// hold the very object `execute` then received.
const city = fx.toolModule('city', {
  imports: `import { z } from 'zod';`,
  schema: `z.object({ city: z.string().max(10), meta: z.object({ tag: z.string() }) })`,
  body: `return { city: input.city, tag: input.meta.tag, frozenForTool: Object.isFrozen(input) };`,
});
const keeps = fx.toolModule('keeps', {
  body: `globalThis.__kept = { items: [1], label: 'first' }; return globalThis.__kept;`,
});
const guard = fx.write(
  'hooks/meddler/index.ts',
  `import { defineAgentHook } from 'RUNTIME';
export default defineAgentHook({
  events: ['tool:before'],
  handle(event) {
    let changed = true;
    try { event.input.city = 'Hookville'; } catch { changed = false; }
    (globalThis.__events ??= []).push('hook:' + (changed ? 'changed' : 'refused') + ':' + Object.isFrozen(event.input));
  },
});`,
);

function snapshotManifest(extra: { hook?: boolean } = {}) {
  return manifest({
    tools: [
      fx.tool('echo', echo),
      fx.tool('city', city, { requiresApproval: 'always' }),
      fx.tool('city-risk', city, { requiresApproval: 'on-risk' }),
      fx.tool('keeps', keeps),
    ],
    hooks: extra.hook ? [fx.hook(':plugin::meddler', guard, { events: ['tool:before'] })] : [],
  });
}

describe('journal entries are deep-frozen snapshots', () => {
  it('changing the caller input after the call does not change the recorded tool_call', async () => {
    const host = createCapabilityHost();
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const input = { city: 'Paris', tags: ['a'], nested: { n: 1 } };
    expect(await turn.execute('echo', input)).toMatchObject({ status: 'completed' });
    input.city = 'Rome';
    input.tags.push('b');
    input.nested.n = 2;
    expect(callEntry(turn.journal).input).toEqual({ city: 'Paris', tags: ['a'], nested: { n: 1 } });
    expect(resultEntry(turn.journal).output).toMatchObject({ echo: { city: 'Paris', tags: ['a'], nested: { n: 1 } } });
    expect(deeplyFrozen(turn.journal[0])).toBe(true);
    expect(deeplyFrozen(turn.journal[1])).toBe(true);
    await turn.end();
  });

  it('each call names the manifest that served it: two instances on different manifests are told apart', async () => {
    const older = createCapabilityHost();
    const newer = createCapabilityHost();
    await older.load(snapshotManifest());
    await newer.load(snapshotManifest({ hook: true }));
    const manifests: string[] = [];
    for (const host of [older, newer, older]) {
      const turn = await host.beginTurn({ sessionKey: 's' });
      await turn.execute('echo', { city: 'Paris' });
      manifests.push(callEntry(turn.journal).manifest!);
      // The same identity the catalog shows operators; `generation` is each process's own count.
      expect(callEntry(turn.journal).manifest).toBe(host.catalog().manifestHash);
      expect(callEntry(turn.journal).generation).toBe(1);
      await turn.end();
    }
    expect(manifests[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(manifests[1]).not.toBe(manifests[0]);
    expect(manifests[2]).toBe(manifests[0]);
  });

  it('a tool changing the object it returned does not change the recorded tool_result', async () => {
    const host = createCapabilityHost();
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('keeps', {});
    globalThis.__kept!.items.push(2);
    globalThis.__kept!.label = 'rewritten';
    expect(resultEntry(turn.journal).output).toEqual({ items: [1], label: 'first' });
    expect(deeplyFrozen(turn.journal[1])).toBe(true);
    // The caller still gets the tool's own value; only the record is a copy.
    expect(outcome).toMatchObject({ status: 'completed', output: { items: [1, 2], label: 'rewritten' } });
    await turn.end();
  });

  it('the sink is handed the same deep-frozen entries', async () => {
    const seen: JournalEntry[] = [];
    const host = createCapabilityHost({ journal: { record: (entry) => void seen.push(entry) } });
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.execute('echo', { list: [{ a: 1 }] });
    expect(seen).toHaveLength(2);
    expect(seen.every((entry) => deeplyFrozen(entry))).toBe(true);
    expect(seen[0]).toBe(turn.journal[0]);
    await turn.end();
  });

  it('input nested 10,000 levels deep is recorded and frozen without overflowing the stack', async () => {
    const host = createCapabilityHost();
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const root: Record<string, unknown> = {};
    let cursor = root;
    for (let depth = 0; depth < 10_000; depth++) cursor = (cursor.next = {}) as Record<string, unknown>;
    cursor.leaf = 'bottom';
    expect(await turn.execute('echo', root)).toMatchObject({ status: 'completed' });
    cursor.leaf = 'changed';
    let recorded = callEntry(turn.journal).input as Record<string, unknown>;
    for (let depth = 0; depth < 10_000; depth++) recorded = recorded.next as Record<string, unknown>;
    expect(recorded.leaf).toBe('bottom');
    expect(Object.isFrozen(recorded)).toBe(true);
    await turn.end();
  });
});

describe('values that are not JSON data', () => {
  it('are recorded as described placeholders; shared and circular references stay shared', async () => {
    const host = createCapabilityHost();
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    class Point {
      constructor(readonly x: number) {}
    }
    const shared = { s: 1 };
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const input = {
      fn: function fetchWeather() {},
      when: new Date('2024-01-01T00:00:00.000Z'),
      map: new Map([['k', 1]]),
      point: new Point(1),
      error: new TypeError('bad'),
      big: 10n,
      missing: undefined,
      a: shared,
      b: shared,
      cyclic,
      // JSON.parse makes an own `__proto__` key; the copy must keep it as data.
      parsed: JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
      get broken(): never {
        throw new Error('getter exploded');
      },
    };
    await turn.execute('echo', input);
    const recorded = callEntry(turn.journal).input as Record<string, unknown>;
    const placeholder: UnrecordedValue = { $unrecorded: 'function fetchWeather' };
    expect(recorded).toMatchObject({
      fn: placeholder,
      when: { $unrecorded: 'Date 2024-01-01T00:00:00.000Z' },
      map: { $unrecorded: 'Map (1 entries)' },
      point: { $unrecorded: 'Point instance' },
      error: { $unrecorded: 'TypeError: bad' },
      big: 10n,
      broken: { $unrecorded: 'unreadable property: getter exploded' },
    });
    expect('missing' in recorded).toBe(true);
    expect(recorded.a).toBe(recorded.b);
    const loop = recorded.cyclic as Record<string, unknown>;
    expect(loop.self).toBe(loop);
    const parsed = recorded.parsed as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ polluted: true });
    expect(deeplyFrozen(recorded)).toBe(true);
    // What is validated and executed is exactly what was recorded.
    expect((resultEntry(turn.journal).output as { echo: unknown }).echo).toBe(recorded);
    await turn.end();
  });
});

describe('the tool runs with exactly the validated input the journal records', () => {
  it('an approval port that changes request.input cannot change what runs', async () => {
    let frozenForPort: boolean | undefined;
    const port: ApprovalPort = {
      async requestApproval(request) {
        frozenForPort = Object.isFrozen(request.input) && Object.isFrozen((request.input as { meta: object }).meta);
        // Reflect.set reports a refused write instead of throwing, like sloppy-mode code would.
        Reflect.set(request.input as object, 'city', 'a city name far longer than ten');
        Reflect.set((request.input as { meta: object }).meta, 'tag', 'forged');
        return true;
      },
    };
    const host = createCapabilityHost({ approval: port });
    await host.load(snapshotManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('city', { city: 'Paris', meta: { tag: 'ok' } });
    expect(frozenForPort).toBe(true);
    expect(outcome).toMatchObject({ status: 'completed', output: { city: 'Paris', tag: 'ok' } });
    expect(callEntry(turn.journal).input).toEqual({ city: 'Paris', meta: { tag: 'ok' } });
    await turn.end();
  });

  it('neither can a risk policy nor a tool:before hook', async () => {
    const policy: RiskPolicy = {
      id: 'meddling-policy',
      appliesTo: () => true,
      verify(call) {
        Reflect.set(call.input as object, 'city', 'Policyland, far too long');
        return true;
      },
    };
    const host = createCapabilityHost({ riskPolicies: [policy] });
    await host.load(snapshotManifest({ hook: true }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('city-risk', { city: 'Paris', meta: { tag: 'ok' } });
    expect(outcome).toMatchObject({ status: 'completed', output: { city: 'Paris', tag: 'ok' } });
    expect(events()).toContain('hook:refused:true');
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_result']);
    await turn.end();
  });

  it('changing the caller input while the module is still loading changes neither the record nor the run', async () => {
    const gate = deferred<void>();
    const base = fx.tool('slow-echo', echo);
    const slow = { ...base, load: async () => (await gate.promise, base.load()) };
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [slow] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const input = { city: 'Paris' };
    const pending = turn.execute('slow-echo', input);
    await new Promise((resolve) => setTimeout(resolve, 5));
    input.city = 'Changed while loading';
    gate.resolve();
    expect(await pending).toMatchObject({ status: 'completed', output: { echo: { city: 'Paris' } } });
    expect(callEntry(turn.journal).input).toEqual({ city: 'Paris' });
    await turn.end();
  });
});
