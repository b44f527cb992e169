/**
 * OpenAI's per-request tool limit (128) through the real SDK clients against the loopback model
 * server: with more listed tools than that, every request the client sends carries at most 128,
 * the meta tools and the loaded tool stay, what was left out is recorded on the turn, and the cut
 * never sends a tool the access decision did not list (masters-only tools stay out for a member).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCapabilityHost, PermissionHost, type Turn } from '../../../runtime/index.js';
import { OPENAI_MAX_TOOLS } from '../../../runtime/deferred/providers.js';
import { catalogTool } from '../deferred/fixture.js';
import { im, manifest } from '../fixture.js';
import { BRIDGES, type Bridge, CORE_BRIDGES, runBridge, sentTools } from './drivers.js';
import { type FakeModelServer, startFakeModels } from './fake-models.js';

const OPENAI_BRIDGES = CORE_BRIDGES.filter((bridge) => bridge.startsWith('openai'));
// The AI SDK bridge sends the generic projection; its model here is @ai-sdk/openai's chat model.
const CAPPED_BRIDGES: readonly Bridge[] = [
  ...OPENAI_BRIDGES,
  ...BRIDGES.filter((bridge) => bridge.startsWith('ai-sdk')),
];
const over = (bridge: Bridge, listed: number) =>
  bridge.startsWith('ai-sdk')
    ? `generic: ${listed} tools listed, over the request's limit of 128`
    : `openai: ${listed} tools listed, over the provider's limit of 128 per request`;
const pad = (i: number, width: number) => String(i).padStart(width, '0');
const ALWAYS = Array.from({ length: 200 }, (_, i) => `always-${pad(i, 3)}`);
const BOSS = Array.from({ length: 40 }, (_, i) => `boss-${pad(i, 2)}`);
const OTHER = Array.from({ length: 100 }, (_, i) => `other-${pad(i, 3)}`);
const METAS = ['discover', 'load_tool', 'load_skill'];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function bigTurn(): Promise<{ turn: Turn; close: () => Promise<void> }> {
  const tools = [
    ...ALWAYS.map((name) => catalogTool(name)),
    // Always loaded by configuration, but a member may not use them: never sent to this principal.
    ...BOSS.map((name) => catalogTool(name, { permissions: ['role(master)'] })),
    ...OTHER.map((name) => catalogTool(name)),
  ];
  const host = createCapabilityHost({
    permissions: new PermissionHost(),
    config: { deferredTools: { alwaysLoadedTools: [...METAS, ...ALWAYS, ...BOSS], maxLoadedPerSession: 4 } },
  });
  await host.load(manifest({ tools }));
  const turn = await host.beginTurn({ sessionKey: 'big', message: im({ type: 'group', role: 'member' }) });
  return { turn, close: () => host.close() };
}

/** Every name a request offered is one the turn lists (the meta tools included). */
async function listedNames(turn: Turn): Promise<Set<string>> {
  const listing = await turn.deferred.listing();
  return new Set([...METAS, ...listing.tools.map((tool) => tool.name)]);
}

const capped = (turn: Turn) =>
  turn.diagnostics.filter((entry) => entry.source === 'catalog').map((entry) => entry.message);

describe.each(CAPPED_BRIDGES)('%s', (bridge) => {
  it('a request never carries more than 128 tools: meta and loaded tools stay, the cut is recorded, access is not widened', async () => {
    server = await startFakeModels([
      { calls: [{ id: 'c1', name: 'load_tool', input: { name: 'other-007' } }] },
      { text: 'Done.' },
    ]);
    const { turn, close } = await bigTurn();
    await runBridge(bridge, turn, server);
    expect(server.requests).toHaveLength(2);
    const listed = await listedNames(turn);
    for (const request of server.requests) {
      const names = sentTools(bridge, request).map((tool) => tool.name);
      expect(names.length).toBe(OPENAI_MAX_TOOLS);
      expect(names.slice(0, 3)).toEqual(METAS);
      for (const name of names) expect(listed.has(name), name).toBe(true);
      expect(names.some((name) => name.startsWith('boss-'))).toBe(false);
    }
    const [first, second] = server.requests.map((request) => sentTools(bridge, request).map((tool) => tool.name));
    // 203 listed (3 meta + 200 always-loaded): the always-loaded ones follow in catalog order.
    expect(first).toEqual([...METAS, ...ALWAYS.slice(0, 125)]);
    // The tool the model just loaded is sent before the always-loaded ones.
    expect(second).toEqual([...METAS, ...ALWAYS.slice(0, 124), 'other-007']);
    expect(capped(turn)).toEqual([
      `${over(bridge, 203)}; left out 75: ${ALWAYS.slice(125, 145).join(', ')}, …`,
      `${over(bridge, 204)}; left out 76: ${ALWAYS.slice(124, 144).join(', ')}, …`,
    ]);
    await turn.end();
    await close();
  });
});

describe.each(CAPPED_BRIDGES.filter((bridge) => !bridge.endsWith('-stream')))('%s, defer: false', (bridge) => {
  it('every listed tool would be 303: the request carries 128, loaded and always-loaded first, never a denied one', async () => {
    server = await startFakeModels([
      { calls: [{ id: 'c1', name: 'load_tool', input: { name: 'other-042' } }] },
      { text: 'Done.' },
    ]);
    const { turn, close } = await bigTurn();
    await runBridge(bridge, turn, server, { defer: false });
    const [first, second] = server.requests.map((request) => sentTools(bridge, request).map((tool) => tool.name));
    expect(first).toEqual([...METAS, ...ALWAYS.slice(0, 125)]);
    expect(second).toEqual([...METAS, ...ALWAYS.slice(0, 124), 'other-042']);
    const listed = await listedNames(turn);
    for (const name of [...first!, ...second!]) expect(listed.has(name), name).toBe(true);
    expect(capped(turn)[0]).toMatch(new RegExp(`^${over(bridge, 303)}; left out 175: always-125, `));
    await turn.end();
    await close();
  });
});

it('the generic projection has no limit of its own; maxTools cuts any provider by the same rules, and must be an integer ≥ 1', async () => {
  const { turn, close } = await bigTurn();
  expect(await turn.modelTools({ provider: 'generic', defer: false })).toHaveLength(303);
  expect(capped(turn)).toEqual([]);
  expect((await turn.modelTools({ provider: 'generic', maxTools: 5 })).map((tool) => tool.name)).toEqual([
    ...METAS,
    'always-000',
    'always-001',
  ]);
  const anthropic = await turn.modelTools({ provider: 'anthropic', maxTools: 10 });
  expect(anthropic.map((tool) => tool.name)).toEqual([...METAS, ...ALWAYS.slice(0, 7)]);
  // A higher maxTools never raises the provider's own limit.
  expect(await turn.modelTools({ provider: 'openai', maxTools: 1000 })).toHaveLength(OPENAI_MAX_TOOLS);
  expect(capped(turn)[0]).toBe(
    `generic: 203 tools listed, over the request's limit of 5; left out 198: ${ALWAYS.slice(2, 22).join(', ')}, …`,
  );
  // More tools to send undeferred than the limit: the Anthropic cut keeps them by the OpenAI
  // priority, with deferral and without, so the tool just loaded is in the next request.
  await turn.execute('load_tool', { name: 'other-042' });
  for (const defer of [true, false]) {
    const sent = await turn.modelTools({ provider: 'anthropic', defer, maxTools: 10 });
    expect(sent.map((tool) => tool.name)).toEqual([...METAS, ...ALWAYS.slice(0, 6), 'other-042']);
    expect(sent.some((tool) => tool.defer_loading === true)).toBe(false);
  }
  expect(capped(turn)).toContain(
    `anthropic: 303 tools listed, over the request's limit of 10; left out 293: ${ALWAYS.slice(6, 26).join(', ')}, …`,
  );
  for (const bad of [0, -1, 1.5, Number.NaN])
    await expect(turn.modelTools({ provider: 'openai', maxTools: bad })).rejects.toThrow(
      /maxTools must be an integer ≥ 1/,
    );
  await turn.end();
  await close();
});
