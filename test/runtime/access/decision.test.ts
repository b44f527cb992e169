/**
 * The one access decision (runtime/access/decision.ts): the pipeline, the turn, the deferred
 * catalog's lists and the operator's omissions all ask it, so for every capability of a turn
 * exactly one of "listed" and "left out, with a reason" holds, and a call runs exactly when the
 * capability is admitted. Real hosts and turns over hand-built manifests.
 */
import { describe, expect, it } from 'vitest';
import {
  PermissionHost,
  createCapabilityHost,
  type CapabilityManifest,
  type ImMessage,
  type ManifestTool,
  type Turn,
} from '../../../runtime/index.js';
import { agent, im, manifest, skill } from '../fixture.js';
import { catalogTool } from '../deferred/fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const tools: ManifestTool[] = [
  catalogTool('open', { description: 'Plugin tool, unrestricted' }),
  catalogTool('group-only', { scopes: ['group'] }),
  catalogTool('icqq-only', { platforms: ['icqq'] }),
  catalogTool('master', { permissions: ['role(master)'] }),
  catalogTool('two-permits', { permissions: ['role(admin)', 'user(u9)'] }),
  catalogTool('ghost', { hidden: true }),
  catalogTool('ghost-master', { hidden: true, permissions: ['role(master)'] }),
  catalogTool('reviewer__check', { placement: 'agent', agent: 'reviewer' }),
  catalogTool('short__normalize', { placement: 'skill', skill: 'short' }),
  catalogTool('review__deep', { placement: 'agent-skill', agent: 'reviewer', skill: 'review' }),
  // A hand-made manifest may carry a placement the runtime does not know: never disclosed.
  catalogTool('odd', { placement: 'elsewhere' as ManifestTool['placement'] }),
];
const bot = (): CapabilityManifest =>
  manifest({
    tools,
    skills: [
      skill('short', { tools: ['short__normalize'] }),
      skill('reviewer__review', { agent: 'reviewer', tools: ['review__deep'] }),
    ],
    agents: [agent('reviewer')],
  });

async function turnFor(
  message: ImMessage | undefined,
  options: { agent?: string; skills?: string[]; permissions?: PermissionHost } = {},
) {
  const host = createCapabilityHost({
    permissions: options.permissions ?? new PermissionHost(),
    jsonSchemaValidator: ajvValidator(),
  });
  await host.load(bot());
  const turn = await host.beginTurn({
    sessionKey: 's',
    ...(message ? { message } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
  });
  return { host, turn };
}

/** name → 'listed' | the omission code; every tool is exactly one of them. */
async function verdicts(turn: Turn): Promise<Record<string, string>> {
  const [listing, omissions] = await Promise.all([turn.deferred.listing(), turn.deferred.omissions()]);
  const out: Record<string, string> = {};
  for (const tool of listing.tools) out[tool.name] = 'listed';
  for (const omission of omissions) {
    if (omission.kind !== 'tool') continue;
    expect(out[omission.name], `${omission.name} is both listed and left out`).toBeUndefined();
    out[omission.name] = omission.reason.code;
  }
  for (const tool of tools) expect(out[tool.qualifiedName], `${tool.qualifiedName}: neither`).toBeDefined();
  return out;
}

/** Whether a call runs (an inaccessible tool is answered like an unknown one). */
async function runs(turn: Turn, name: string): Promise<boolean> {
  return (await turn.execute(name, {})).status === 'completed';
}

const OWN = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => tools.some((t) => t.qualifiedName === name)));

describe('one access decision', () => {
  it('a group turn of a user: every tool is listed or left out for the first rule it fails', async () => {
    const { host, turn } = await turnFor(im({ type: 'group', role: 'user' }));
    expect(OWN(await verdicts(turn))).toEqual({
      open: 'listed',
      'group-only': 'listed',
      'icqq-only': 'platform',
      master: 'permission',
      'two-permits': 'permission',
      ghost: 'hidden',
      'ghost-master': 'permission',
      reviewer__check: 'agent-not-selected',
      short__normalize: 'skill-not-loaded',
      review__deep: 'agent-not-selected',
      odd: 'unknown-placement',
    });
    const omissions = await turn.deferred.omissions();
    const reason = (name: string) => omissions.find((o) => o.name === name)?.reason;
    // The first failing permit is named; restrictions are decided in order (platform before scope before permits).
    expect(reason('two-permits')).toMatchObject({ code: 'permission', permit: 'role(admin)' });
    expect(reason('icqq-only')).toMatchObject({ code: 'platform', platforms: ['icqq'], actual: 'qq' });
    expect(reason('odd')).toMatchObject({ code: 'unknown-placement', placement: 'elsewhere' });
    await turn.end();
    await host.close();
  });

  it('a call runs exactly when the tool is admitted (listed, or hidden and otherwise admitted)', async () => {
    const { host, turn } = await turnFor(im({ type: 'private', role: 'master' }), {
      agent: 'reviewer',
      skills: ['reviewer__review'],
    });
    const verdict = OWN(await verdicts(turn));
    expect(verdict).toMatchObject({
      master: 'listed',
      'group-only': 'scope',
      ghost: 'hidden',
      'ghost-master': 'hidden',
      reviewer__check: 'listed',
      review__deep: 'listed',
      short__normalize: 'skill-not-loaded',
      odd: 'unknown-placement',
    });
    for (const tool of tools) {
      const admitted = verdict[tool.qualifiedName] === 'listed' || verdict[tool.qualifiedName] === 'hidden';
      expect(await runs(turn, tool.qualifiedName), tool.qualifiedName).toBe(admitted);
    }
    await turn.end();
    await host.close();
  });

  it('a non-IM turn sees only unrestricted tools; the reason says why', async () => {
    const { host, turn } = await turnFor(undefined);
    const verdict = OWN(await verdicts(turn));
    expect(verdict).toMatchObject({ open: 'listed', 'group-only': 'no-message', master: 'no-message' });
    expect(await runs(turn, 'group-only')).toBe(false);
    expect(await runs(turn, 'open')).toBe(true);
    await turn.end();
    await host.close();
  });

  it('a checker whose answer changes is asked once per turn: the listing and the omissions agree', async () => {
    // Live state (a group admin list) may change between two questions; one turn asks once.
    let calls = 0;
    const permissions = new PermissionHost();
    permissions.register('flip', () => ++calls > 1);
    const flipping = manifest({ tools: [catalogTool('flip-guarded', { permissions: ['flip'] })] });
    const host = createCapabilityHost({ permissions });
    await host.load(flipping);
    const turn = await host.beginTurn({ sessionKey: 's', message: im() });
    const listing = await turn.deferred.listing();
    const omissions = await turn.deferred.omissions();
    expect(listing.tools.map((t) => t.name)).not.toContain('flip-guarded');
    expect(omissions.map((o) => `${o.name}:${o.reason.code}`)).toContain('flip-guarded:permission');
    expect(calls).toBe(1);
    await turn.end();
    await host.close();
  });

  it('a throwing checker and a missing permission host both deny, with the permit named', async () => {
    const throwing = new PermissionHost();
    throwing.register('boom', () => {
      throw new Error('checker bug');
    });
    const guarded = manifest({ tools: [catalogTool('guarded', { permissions: ['boom'] })] });
    for (const permissions of [throwing, undefined]) {
      const host = createCapabilityHost(permissions ? { permissions } : {});
      await host.load(guarded);
      const turn = await host.beginTurn({ sessionKey: 's', message: im() });
      const omissions = await turn.deferred.omissions();
      expect(omissions.find((o) => o.name === 'guarded')?.reason).toMatchObject({ code: 'permission', permit: 'boom' });
      expect(await runs(turn, 'guarded')).toBe(false);
      await turn.end();
      await host.close();
    }
  });
});
