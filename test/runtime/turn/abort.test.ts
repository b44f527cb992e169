/**
 * Abort ends every phase of a call, even when what the phase waits for never settles: a module
 * import (top-level await), a permission checker, an async schema, a hook, a risk policy. Each
 * aborted call settles promptly with exactly one terminal journal entry, and `turn.end()` is not
 * held by a promise that may never settle.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PermissionHost, createCapabilityHost, type JournalEntry, type ToolOutcome } from '../../../runtime/index.js';
import { Fixture, events, im, loadedModules, manifest, resetGlobals } from '../fixture.js';

const fx = new Fixture('abort-phases');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const types = (journal: readonly JournalEntry[]) => journal.map((entry) => entry.type);
const never = 'await new Promise(() => {});';

/** Fails the test (instead of hanging it) when `promise` is still pending after `ms`. */
async function within<T>(promise: Promise<T>, ms = 1000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending ${ms} ms later`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a call with its own signal and aborts it once `reached()` holds (by default: 50 ms in, as
 * in the report), so each test aborts inside the phase it is about, however slow the import.
 * Resolves with the outcome and how long the call took to settle after the abort.
 */
async function abortWhen(
  execute: (signal: AbortSignal) => Promise<ToolOutcome>,
  reached?: () => boolean,
): Promise<{ outcome: ToolOutcome; lateMs: number }> {
  const controller = new AbortController();
  let abortedAt = 0;
  const abort = () => {
    abortedAt = performance.now();
    controller.abort();
  };
  const pending = execute(controller.signal);
  if (reached) {
    const start = Date.now();
    while (!reached()) {
      if (Date.now() - start > 5000) throw new Error('the phase was never reached');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    abort();
  } else {
    setTimeout(abort, 50);
  }
  const outcome = await within(pending, 2000);
  return { outcome, lateMs: performance.now() - abortedAt };
}

// A tool whose module never finishes importing (a top-level await on a network call that hangs).
const hangingImport = fx.write(
  'tools/hanging/index.ts',
  `import { defineAgentTool } from 'RUNTIME';
(globalThis.__loaded ??= []).push('hanging');
${never}
export default defineAgentTool({ description: 'never loads', requiresApproval: 'never', async execute() { (globalThis.__events ??= []).push('execute:hanging'); return 'ran'; } });`,
);
const plain = fx.toolModule('plain');
const slowSchema = fx.toolModule('slow-schema', {
  imports: `import { z } from 'zod';`,
  schema: `z.object({ q: z.string().refine(() => { (globalThis.__events ??= []).push('refine'); return new Promise(() => {}); }) })`,
});
const hookModule = (name: string, source: string) =>
  fx.write(
    `hooks/${name}/index.ts`,
    `import { defineAgentHook } from 'RUNTIME';
${source}`,
  );
const hangingHookImport = hookModule(
  'hanging-import',
  `(globalThis.__loaded ??= []).push('hook');\n${never}\nexport default defineAgentHook({ events: ['tool:before'], handle() {} });`,
);
const hangingHandle = hookModule(
  'hanging-handle',
  `export default defineAgentHook({ events: ['tool:before'], async handle() { (globalThis.__events ??= []).push('hook:before'); ${never} } });`,
);
const hangingAfter = hookModule(
  'hanging-after',
  `export default defineAgentHook({ events: ['tool:after'], async handle() { (globalThis.__events ??= []).push('hook:after'); ${never} } });`,
);

describe('a module import that never settles', () => {
  it('an abort after 50 ms settles the call at once: tool_cancelled, the tool never runs', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('hanging', hangingImport)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    // The abort comes 50 ms in and only once the module is evaluating (on a busy machine the
    // transform alone can take longer than 50 ms): the import is what is pending.
    const started = Date.now();
    const { outcome, lateMs } = await abortWhen(
      (signal) => turn.execute('hanging', {}, { signal }),
      () => Date.now() - started >= 50 && loadedModules().includes('hanging'),
    );
    expect(outcome).toEqual({ status: 'cancelled', reason: 'aborted while loading the tool module' });
    // Settles on the abort itself, not on a timeout (generous bound: the machine may be busy).
    expect(lateMs).toBeLessThan(1000);
    expect(loadedModules()).toEqual(['hanging']);
    expect(events()).toEqual([]);
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled']);
    // The lease is not held by an import that may never finish.
    await within(turn.end());
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled']);
  });

  it('turn.end() during the import cancels the call and releases the turn', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('hanging', hangingImport)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const pending = turn.execute('hanging', {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    await within(turn.end());
    expect(await within(pending)).toEqual({ status: 'cancelled', reason: 'aborted while loading the tool module' });
  });

  it('a second call waiting on the same pending import is cancellable too', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('hanging', hangingImport)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    await abortWhen((signal) => turn.execute('hanging', {}, { signal }));
    const { outcome } = await abortWhen((signal) => turn.execute('hanging', {}, { signal }));
    expect(outcome).toMatchObject({ status: 'cancelled' });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled', 'tool_call', 'tool_cancelled']);
    await within(turn.end());
  });
});

describe('every other phase that waits on code the pipeline does not own', () => {
  it('an async schema refinement that never settles: cancelled during validation', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('slow-schema', slowSchema)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const { outcome } = await abortWhen(
      (signal) => turn.execute('slow-schema', { q: 'x' }, { signal }),
      () => events().includes('refine'),
    );
    expect(outcome).toEqual({ status: 'cancelled', reason: 'aborted during input validation' });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled']);
    // Zod's Standard Schema tries the sync parse first, so the refinement may run twice.
    expect(events().filter((event) => event !== 'refine')).toEqual([]);
    await within(turn.end());
  });

  it('a tool:before hook whose import or handler never settles: cancelled during hooks', async () => {
    const cases = [
      [':plugin::hanging-import', hangingHookImport, () => loadedModules().includes('hook')],
      [':plugin::hanging-handle', hangingHandle, () => events().includes('hook:before')],
    ] as const;
    for (const [id, file, reached] of cases) {
      resetGlobals();
      const host = createCapabilityHost();
      await host.load(
        manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(id, file, { events: ['tool:before'] })] }),
      );
      const turn = await host.beginTurn({ sessionKey: 's' });
      const { outcome } = await abortWhen((signal) => turn.execute('plain', {}, { signal }), reached);
      expect(outcome).toEqual({ status: 'cancelled', reason: 'aborted during tool:before hooks' });
      expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled']);
      expect(events()).not.toContain('execute:plain');
      await within(turn.end());
    }
  });

  it('a risk policy that never answers: cancelled while waiting for approval, the tool never runs', async () => {
    const asked: string[] = [];
    const host = createCapabilityHost({
      riskPolicies: [
        { id: 'stuck', appliesTo: () => true, verify: () => (asked.push('verify'), new Promise<boolean>(() => {})) },
      ],
      approval: { requestApproval: async () => true },
    });
    await host.load(manifest({ tools: [fx.tool('plain', plain, { requiresApproval: 'on-risk' })] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const { outcome } = await abortWhen(
      (signal) => turn.execute('plain', {}, { signal }),
      () => asked.length > 0,
    );
    expect(outcome).toEqual({ status: 'cancelled', reason: 'aborted while waiting for approval' });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_cancelled']);
    expect(events()).toEqual([]);
    await within(turn.end());
  });

  it('a permission checker that never answers: the undecided call is not admitted (tool_denied, capability)', async () => {
    const permissions = new PermissionHost();
    const asked: string[] = [];
    permissions.register('vip', () => (asked.push('vip'), new Promise<boolean>(() => {})));
    const host = createCapabilityHost({ permissions });
    await host.load(manifest({ tools: [fx.tool('gated', plain, { permissions: ['vip'] })] }));
    const turn = await host.beginTurn({ sessionKey: 's', message: im() });
    const { outcome } = await abortWhen(
      (signal) => turn.execute('gated', {}, { signal }),
      () => asked.length > 0,
    );
    // The same answer as for an inaccessible or unknown tool: an abort must not reveal the tool.
    expect(outcome).toEqual({ status: 'denied', policy: 'capability', reason: 'tool "gated" is not available' });
    expect(await turn.execute('no-such-tool', {})).toEqual({
      status: 'denied',
      policy: 'capability',
      reason: 'tool "no-such-tool" is not available',
    });
    expect(types(turn.journal)).toEqual(['tool_denied', 'tool_denied']);
    expect(loadedModules()).toEqual([]);
    await within(turn.end());
  });

  it('a tool:after hook that never settles: the caller stops waiting at the abort and gets the real outcome', async () => {
    const host = createCapabilityHost();
    await host.load(
      manifest({
        tools: [fx.tool('plain', plain)],
        hooks: [fx.hook(':plugin::hanging-after', hangingAfter, { events: ['tool:after'] })],
      }),
    );
    const turn = await host.beginTurn({ sessionKey: 's' });
    const { outcome } = await abortWhen(
      (signal) => turn.execute('plain', {}, { signal }),
      () => events().includes('hook:after'),
    );
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(events()).toEqual(['execute:plain', 'hook:after']);
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_result']);
    await within(turn.end());
  });
});

describe('many calls on one signal', () => {
  it('34 calls of one reply sharing a signal add no listener each to it (no MaxListenersExceededWarning)', async () => {
    const slow = fx.write(
      'tools/slow/index.ts',
      `import { defineAgentTool } from 'RUNTIME';
export default defineAgentTool({ description: 'slow', requiresApproval: 'never', async execute() { await new Promise((r) => setTimeout(r, 50)); return 'done'; } });`,
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const host = createCapabilityHost();
      await host.load(manifest({ tools: [fx.tool('slow', slow)] }));
      const turn = await host.beginTurn({ sessionKey: 's' });
      const loop = new AbortController();
      const outcomes = await within(
        Promise.all(Array.from({ length: 34 }, () => turn.execute('slow', {}, { signal: loop.signal }))),
        5000,
      );
      expect(outcomes.every((outcome) => outcome.status === 'completed')).toBe(true);
      // Aborting it still reaches every call that is running.
      const running = Array.from({ length: 12 }, () => turn.execute('slow', {}, { signal: loop.signal }));
      loop.abort(new Error('stop'));
      expect((await within(Promise.all(running))).map((outcome) => outcome.status)).toEqual(
        Array(12).fill('cancelled'),
      );
      await turn.end();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
