/**
 * The watch loop's batching (compiler/watch/loop.ts), on fake timers: a save (a file's add or
 * change) runs after the short settle time, while a batch holding a removal or a new directory
 * waits the full quiet period, so a branch checkout's events, which come with gaps longer than
 * a save's settle time, are one run, not one per gap.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompileResult, FileEvent } from '../../../compiler/context.js';
import { WatchLoop } from '../../../compiler/watch/loop.js';

function recordingLoop() {
  const batches: string[][] = [];
  const loop = new WatchLoop({
    quietMs: 30,
    settleMs: 4,
    ignore: () => false,
    run: async (events) => {
      batches.push(events.map((event) => `${event.type} ${event.path}`));
      // The loop only hands the result on (onResult); these runs have none to give.
      return undefined as unknown as CompileResult;
    },
  });
  return { batches, loop };
}

/** Pushes each event, then lets `gapMs` pass before the next. */
async function trickle(loop: WatchLoop, events: readonly FileEvent[], gapMs: number): Promise<void> {
  for (const event of events) {
    loop.push(event);
    await vi.advanceTimersByTimeAsync(gapMs);
  }
  await vi.advanceTimersByTimeAsync(100);
  await loop.idle();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('watch loop batching', () => {
  it('a save runs after the settle time: changes 10 ms apart are one run each', async () => {
    const { batches, loop } = recordingLoop();
    await trickle(
      loop,
      [
        { type: 'change', path: '/bot/tools/a/index.ts' },
        { type: 'change', path: '/bot/tools/b/index.ts' },
        { type: 'add', path: '/bot/tools/c/helper.ts' },
      ],
      10,
    );
    expect(batches).toEqual([
      ['change /bot/tools/a/index.ts'],
      ['change /bot/tools/b/index.ts'],
      ['add /bot/tools/c/helper.ts'],
    ]);
  });

  it('new directories 10 ms apart (a checkout) wait the quiet period: one run', async () => {
    const { batches, loop } = recordingLoop();
    const events: FileEvent[] = [];
    for (const name of ['x', 'y', 'z']) {
      events.push({ type: 'addDir', path: `/bot/tools/${name}` }, { type: 'add', path: `/bot/tools/${name}/index.ts` });
    }
    await trickle(loop, events, 10);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(6);
  });

  it('a removal waits the quiet period too (a delete-and-create save is one run)', async () => {
    const { batches, loop } = recordingLoop();
    await trickle(
      loop,
      [
        { type: 'unlink', path: '/bot/tools/a/index.ts' },
        { type: 'add', path: '/bot/tools/a/index.ts' },
      ],
      10,
    );
    expect(batches).toEqual([['add /bot/tools/a/index.ts']]);
  });
});

describe('events that come during a run', () => {
  /**
   * A loop whose relevance is what its runs learn, as the compiler's is: a path outside the root
   * counts once some unit's schema read it, which the unit cache knows only when the run stores it.
   */
  function learningLoop() {
    const batches: string[][] = [];
    const relevant = new Set<string>(['/bot/tools/a/index.ts']);
    let during: (() => void) | undefined;
    const loop = new WatchLoop({
      quietMs: 30,
      settleMs: 4,
      ignore: (path) => !relevant.has(path),
      run: async (events) => {
        batches.push(events.map((event) => `${event.type} ${event.path}`));
        // Halfway through the run: the parse stage stored the unit, its schema is not read yet.
        await new Promise((resolve) => setTimeout(resolve, 10));
        during?.();
        during = undefined;
        await new Promise((resolve) => setTimeout(resolve, 10));
        // The schema stage read the package's module: from now on its events count.
        relevant.add('/pkg/src/s.js');
        return undefined as unknown as CompileResult;
      },
    });
    return { batches, loop, halfway: (task: () => void) => (during = task) };
  }

  it('are judged once the run has ended: a module the run learned it depends on gets its own run', async () => {
    const { batches, loop, halfway } = learningLoop();
    halfway(() => loop.push({ type: 'unlinkDir', path: '/pkg/src/s.js' }));
    loop.push({ type: 'change', path: '/bot/tools/a/index.ts' });
    await vi.advanceTimersByTimeAsync(200);
    await loop.idle();
    expect(batches).toEqual([['change /bot/tools/a/index.ts'], ['unlinkDir /pkg/src/s.js']]);
  });

  it("dates a batch by its own first event, not by one it dropped (the run's own write into the output)", async () => {
    const dated: (number | undefined)[] = [];
    const relevant = (path: string): boolean => path.startsWith('/bot/tools/');
    let during: (() => void) | undefined;
    const loop = new WatchLoop({
      quietMs: 30,
      settleMs: 4,
      ignore: (path) => !relevant(path),
      run: async (_events, _requested, firstEventAt) => {
        dated.push(firstEventAt);
        await new Promise((resolve) => setTimeout(resolve, 10));
        during?.();
        during = undefined;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return undefined as unknown as CompileResult;
      },
    });
    const wall = (): number => performance.timeOrigin + performance.now();
    const firstSave = wall();
    loop.push({ type: 'change', path: '/bot/tools/a/index.ts' });
    during = () => loop.push({ type: 'change', path: '/bot/zhin-capabilities.gen.ts' });
    await vi.advanceTimersByTimeAsync(400);
    await loop.idle();
    const secondSave = wall();
    loop.push({ type: 'change', path: '/bot/tools/a/index.ts' });
    await vi.advanceTimersByTimeAsync(100);
    await loop.idle();
    expect(dated).toHaveLength(2);
    expect(dated[0]).toBeGreaterThanOrEqual(firstSave);
    expect(dated[0]).toBeLessThan(secondSave);
    expect(dated[1]).toBeGreaterThanOrEqual(secondSave);
  });

  it('an event that still does not count once the run has ended starts no run and leaves the loop idle', async () => {
    const { batches, loop, halfway } = learningLoop();
    halfway(() => loop.push({ type: 'change', path: '/bot/zhin-capabilities.gen.ts' }));
    loop.push({ type: 'change', path: '/bot/tools/a/index.ts' });
    await vi.advanceTimersByTimeAsync(25);
    // The run has ended: the output's event was dropped, nothing waits (a pre-warm may take the slot).
    const busyAfter = loop.busy();
    await vi.advanceTimersByTimeAsync(200);
    await loop.idle();
    expect(busyAfter).toBe(false);
    expect(batches).toEqual([['change /bot/tools/a/index.ts']]);
  });
});
