import { describe, expect, it } from 'vitest';
import { PermissionHost, canAccessTool } from '../../../runtime/index.js';
import { im } from '../fixture.js';

describe('canAccessTool', () => {
  const permissions = new PermissionHost();

  it('passes an unrestricted tool for any message, and with no message', async () => {
    expect(await canAccessTool({}, im())).toBe(true);
    expect(await canAccessTool({ platforms: [], scopes: [], permissions: [] }, im())).toBe(true);
    expect(await canAccessTool({}, undefined)).toBe(true);
    expect(await canAccessTool({ platforms: [], scopes: [], permissions: [] }, undefined)).toBe(true);
  });

  it('without a message (non-IM turn) denies every restricted tool', async () => {
    expect(await canAccessTool({ platforms: ['qq'] }, undefined, permissions)).toBe(false);
    expect(await canAccessTool({ scopes: ['private'] }, undefined, permissions)).toBe(false);
    expect(await canAccessTool({ permissions: ['private()'] }, undefined, permissions)).toBe(false);
  });

  it('platforms: String(message.$adapter) must be listed exactly', async () => {
    expect(await canAccessTool({ platforms: ['qq', 'icqq'] }, im({ adapter: 'icqq' }))).toBe(true);
    expect(await canAccessTool({ platforms: ['qq'] }, im({ adapter: 'discord' }))).toBe(false);
    expect(await canAccessTool({ platforms: ['qq'] }, im({ adapter: 'adapters/qq' }))).toBe(false);
    const adapterObject = { toString: () => 'qq' };
    expect(await canAccessTool({ platforms: ['qq'] }, { $adapter: adapterObject })).toBe(true);
  });

  it('scopes: channel type, missing type = private', async () => {
    expect(await canAccessTool({ scopes: ['group'] }, im({ type: 'group' }))).toBe(true);
    expect(await canAccessTool({ scopes: ['group'] }, im({ type: 'private' }))).toBe(false);
    expect(await canAccessTool({ scopes: ['private'] }, im({}))).toBe(true);
    expect(await canAccessTool({ scopes: ['private'] }, { $adapter: 'qq' })).toBe(true);
    expect(await canAccessTool({ scopes: ['group', 'channel'] }, im({}))).toBe(false);
    expect(await canAccessTool({ scopes: ['channel'] }, im({ type: 'channel' }))).toBe(true);
  });

  it('permissions: AND across entries, OR inside one', async () => {
    const tool = { permissions: ['adapter(qq)', 'role(admin,master)'] };
    expect(await canAccessTool(tool, im({ role: 'admin' }), permissions)).toBe(true);
    expect(await canAccessTool(tool, im({ role: 'master' }), permissions)).toBe(true);
    expect(await canAccessTool(tool, im({ role: 'user' }), permissions)).toBe(false);
    expect(await canAccessTool(tool, im({ adapter: 'discord', role: 'admin' }), permissions)).toBe(false);
  });

  it('no permission host installed → deny permission-gated tools only', async () => {
    expect(await canAccessTool({ permissions: ['adapter(qq)'] }, im())).toBe(false);
    expect(await canAccessTool({ platforms: ['qq'] }, im())).toBe(true);
  });

  it('unknown permits deny; platform permits need a checker', async () => {
    expect(await canAccessTool({ permissions: ['is_cool'] }, im(), permissions)).toBe(false);
    expect(await canAccessTool({ permissions: ['platform(qq,scene_admin)'] }, im(), permissions)).toBe(false);
    const host = new PermissionHost();
    host.registerPlatform('qq', (perm) => perm === 'scene_admin');
    expect(await canAccessTool({ permissions: ['platform(qq,scene_admin)'] }, im(), host)).toBe(true);
  });

  it('every restriction must hold together', async () => {
    const tool = { platforms: ['qq'], scopes: ['group' as const], permissions: ['group(g1)'] };
    expect(await canAccessTool(tool, im({ type: 'group', channel: 'g1' }), permissions)).toBe(true);
    expect(await canAccessTool(tool, im({ type: 'group', channel: 'g2' }), permissions)).toBe(false);
    expect(await canAccessTool(tool, im({ type: 'private', channel: 'g1' }), permissions)).toBe(false);
    expect(await canAccessTool(tool, im({ adapter: 'kook', type: 'group', channel: 'g1' }), permissions)).toBe(false);
  });
});
