import { describe, expect, it } from 'vitest';
import { PermissionHost, parsePermit, toPermissionSubject, type PermissionSubject } from '../../../runtime/index.js';
import { im } from '../fixture.js';

const subject = (overrides: Partial<PermissionSubject> = {}): PermissionSubject => ({
  adapter: 'qq',
  scene: { id: 'g1', type: 'group' },
  sender: { id: 'u1', roles: ['user'], permissions: [] },
  ...overrides,
});

describe('parsePermit', () => {
  it('parses every builtin kind', () => {
    expect(parsePermit('adapter(qq,icqq)')).toEqual({
      kind: 'adapter',
      text: 'adapter(qq,icqq)',
      values: ['qq', 'icqq'],
    });
    expect(parsePermit('group(g1, g2)')).toMatchObject({ kind: 'group', values: ['g1', 'g2'] });
    expect(parsePermit('private(p1)')).toMatchObject({ kind: 'private', values: ['p1'] });
    expect(parsePermit('channel(c1)')).toMatchObject({ kind: 'channel', values: ['c1'] });
    expect(parsePermit('user(u1)')).toMatchObject({ kind: 'user', values: ['u1'] });
    expect(parsePermit('role(master,trusted)')).toMatchObject({ kind: 'role', values: ['master', 'trusted'] });
    expect(parsePermit('platform(qq,scene_admin)')).toEqual({
      kind: 'platform',
      text: 'platform(qq,scene_admin)',
      adapter: 'qq',
      permission: 'scene_admin',
    });
  });

  it('turns private() and private(*) into the wildcard, but never widens on a stray comma', () => {
    expect(parsePermit('private()')).toMatchObject({ kind: 'private', values: ['*'] });
    expect(parsePermit('private(*)')).toMatchObject({ kind: 'private', values: ['*'] });
    expect(parsePermit('group(g1,)')).toMatchObject({ kind: 'group', values: ['g1'] });
  });

  it('classifies custom and invalid permits', () => {
    expect(parsePermit('can_deploy')).toEqual({ kind: 'custom', text: 'can_deploy' });
    expect(parsePermit('adapters/qq')).toEqual({ kind: 'custom', text: 'adapters/qq' });
    expect(parsePermit('feature(x)')).toEqual({ kind: 'custom', text: 'feature(x)' });
    expect(parsePermit('platform(qq,)')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit('platform(qq)')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit('Role(master)')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit('role (master)')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit('role()')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit('')).toMatchObject({ kind: 'invalid' });
    expect(parsePermit(' adapter(qq)')).toMatchObject({ kind: 'invalid' });
  });
});

describe('PermissionHost.check — builtin kinds', () => {
  const host = new PermissionHost();

  it('adapter(name,…) is OR inside the permit', async () => {
    expect(await host.check('adapter(qq)', subject())).toBe(true);
    expect(await host.check('adapter(discord,qq)', subject())).toBe(true);
    expect(await host.check('adapter(discord)', subject())).toBe(false);
    expect(await host.check('adapter(qq)', subject({ adapter: undefined }))).toBe(false);
  });

  it('adapter(qq) matches a path-style adapter adapters/qq, never by prefix', async () => {
    expect(await host.check('adapter(qq)', subject({ adapter: 'adapters/qq' }))).toBe(true);
    expect(await host.check('adapter(qq)', subject({ adapter: 'qq-guild' }))).toBe(false);
    expect(await host.check('adapter(qq)', subject({ adapter: 'icqq' }))).toBe(false);
    expect(await host.check('adapter(adapters/qq)', subject({ adapter: 'qq' }))).toBe(false);
  });

  it('the bare permit "adapters/qq" is a custom permit: denied unless registered', async () => {
    expect(await host.check('adapters/qq', subject({ adapter: 'adapters/qq' }))).toBe(false);
    const custom = new PermissionHost();
    custom.register('adapters/qq', (_permit, s) => s.adapter === 'adapters/qq');
    expect(await custom.check('adapters/qq', subject({ adapter: 'adapters/qq' }))).toBe(true);
  });

  it('group / private / channel match scene type and id, with wildcards', async () => {
    expect(await host.check('group(g1)', subject())).toBe(true);
    expect(await host.check('group(g2,g1)', subject())).toBe(true);
    expect(await host.check('group(g2)', subject())).toBe(false);
    expect(await host.check('group()', subject())).toBe(true);
    expect(await host.check('group(*)', subject())).toBe(true);
    expect(await host.check('group(g2,)', subject())).toBe(false);
    expect(await host.check('private()', subject())).toBe(false);
    expect(await host.check('channel(*)', subject())).toBe(false);
    const dm = subject({ scene: { id: 'p1', type: 'private' } });
    expect(await host.check('private()', dm)).toBe(true);
    expect(await host.check('private(*)', dm)).toBe(true);
    expect(await host.check('private(p1)', dm)).toBe(true);
    expect(await host.check('private(p2)', dm)).toBe(false);
    expect(await host.check('group()', dm)).toBe(false);
    const channel = subject({ scene: { id: 'c9', type: 'channel' } });
    expect(await host.check('channel(c9)', channel)).toBe(true);
    expect(await host.check('channel()', channel)).toBe(true);
    expect(await host.check('group()', subject({ scene: undefined }))).toBe(false);
  });

  it('a message without a channel type is a private scene', async () => {
    expect(await host.check('private()', toPermissionSubject(im({})))).toBe(true);
    expect(await host.check('private(c1)', toPermissionSubject(im({})))).toBe(true);
    expect(await host.check('group()', toPermissionSubject(im({})))).toBe(false);
    expect(await host.check('private()', toPermissionSubject({ $adapter: 'qq' }))).toBe(true);
  });

  it('user(id,…) matches the sender id', async () => {
    expect(await host.check('user(u1)', subject())).toBe(true);
    expect(await host.check('user(u2,u1)', subject())).toBe(true);
    expect(await host.check('user(u2)', subject())).toBe(false);
    expect(await host.check('user(u1)', subject({ sender: undefined }))).toBe(false);
    expect(await host.check('user(*)', subject())).toBe(false);
  });

  it('role expansion: master implies trusted and nothing else', async () => {
    const master = subject({ sender: { id: 'm', roles: ['master'], permissions: [] } });
    expect(await host.check('role(master)', master)).toBe(true);
    expect(await host.check('role(trusted)', master)).toBe(true);
    expect(await host.check('role(user)', master)).toBe(false);
    expect(await host.check('role(admin)', master)).toBe(false);
    const trusted = subject({ sender: { id: 't', roles: ['trusted'], permissions: [] } });
    expect(await host.check('role(trusted)', trusted)).toBe(true);
    expect(await host.check('role(master)', trusted)).toBe(false);
    expect(await host.check('role(admin,user)', subject())).toBe(true);
    expect(await host.check('role(user)', subject({ sender: undefined }))).toBe(false);
  });

  it('takes roles from a string or an array on the message sender', async () => {
    expect(await host.check('role(trusted)', toPermissionSubject(im({ role: 'master' })))).toBe(true);
    expect(await host.check('role(admin)', toPermissionSubject(im({ role: ['user', 'admin'] })))).toBe(true);
    expect(await host.check('role(user)', toPermissionSubject(im({})))).toBe(false);
  });
});

describe('PermissionHost.check — platform(adapter,perm)', () => {
  it('is decided by the checker registered for that adapter; none → deny', async () => {
    const host = new PermissionHost();
    expect(await host.check('platform(qq,scene_admin)', subject())).toBe(false);
    const seen: string[] = [];
    const dispose = host.registerPlatform('qq', (perm) => {
      seen.push(perm);
      return perm === 'scene_admin';
    });
    expect(await host.check('platform(qq,scene_admin)', subject())).toBe(true);
    expect(await host.check('platform(qq,scene_owner)', subject())).toBe(false);
    expect(seen).toEqual(['scene_admin', 'scene_owner']);
    dispose();
    dispose(); // idempotent
    expect(await host.check('platform(qq,scene_admin)', subject())).toBe(false);
  });

  it('only speaks for turns from its own adapter', async () => {
    const host = new PermissionHost();
    host.registerPlatform('qq', () => true);
    expect(await host.check('platform(qq,x)', subject({ adapter: 'discord' }))).toBe(false);
    expect(await host.check('platform(qq,x)', subject({ adapter: 'adapters/qq' }))).toBe(true);
  });

  it('platform(qq,) and platform(qq) never reach a checker', async () => {
    const host = new PermissionHost();
    let called = 0;
    host.registerPlatform('qq', () => ++called > 0);
    expect(await host.check('platform(qq,)', subject())).toBe(false);
    expect(await host.check('platform(qq)', subject())).toBe(false);
    expect(called).toBe(0);
  });

  it('the latest registration decides; disposing it restores the previous one', async () => {
    const host = new PermissionHost();
    host.registerPlatform('qq', () => true);
    const dispose = host.registerPlatform('qq', () => false);
    expect(await host.check('platform(qq,x)', subject())).toBe(false);
    dispose();
    expect(await host.check('platform(qq,x)', subject())).toBe(true);
  });

  it('a throwing or non-boolean checker denies', async () => {
    const host = new PermissionHost();
    host.registerPlatform('qq', () => {
      throw new Error('boom');
    });
    expect(await host.check('platform(qq,x)', subject())).toBe(false);
    const other = new PermissionHost();
    other.registerPlatform('qq', (() => 'yes') as never);
    expect(await other.check('platform(qq,x)', subject())).toBe(false);
  });

  it('registrations are isolated per host', async () => {
    const first = new PermissionHost();
    first.registerPlatform('qq', () => true);
    expect(await new PermissionHost().check('platform(qq,x)', subject())).toBe(false);
  });
});

describe('PermissionHost.check — custom and unknown permits', () => {
  it('matches custom permits by exact string, sync or async', async () => {
    const host = new PermissionHost();
    host.register('can_deploy', (_p, s) => s.sender?.id === 'u1');
    host.register('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return true;
    });
    expect(await host.check('can_deploy', subject())).toBe(true);
    expect(await host.check('can_deploy', subject({ sender: { id: 'u2', roles: [], permissions: [] } }))).toBe(false);
    expect(await host.check('can_deploy2', subject())).toBe(false);
    expect(await host.check('slow', subject())).toBe(true);
  });

  it('matches by RegExp, normalising stateful flags', async () => {
    const host = new PermissionHost();
    const matcher = /^feature\./g;
    host.register(matcher, (permit) => permit !== 'feature.blocked');
    expect(await host.check('feature.deploy', subject())).toBe(true);
    expect(await host.check('feature.deploy', subject())).toBe(true);
    expect(await host.check('feature.blocked', subject())).toBe(false);
    expect(await host.check('other.deploy', subject())).toBe(false);
    expect(matcher.lastIndex).toBe(0);
  });

  it('lets a custom checker decide unknown call forms', async () => {
    const host = new PermissionHost();
    expect(await host.check('feature(x)', subject())).toBe(false);
    host.register(/^feature\(/, () => true);
    expect(await host.check('feature(x)', subject())).toBe(true);
  });

  it('never lets a custom checker override a builtin kind', async () => {
    const host = new PermissionHost();
    host.register('role(master)', () => true);
    host.register(/^adapter\(/, () => true);
    expect(await host.check('role(master)', subject())).toBe(false);
    expect(await host.check('adapter(discord)', subject())).toBe(false);
  });

  it('disposers remove exactly their registration and are idempotent', async () => {
    const host = new PermissionHost();
    const first = host.register('x', () => true);
    host.register('x', () => false);
    expect(await host.check('x', subject())).toBe(true);
    first();
    first();
    expect(await host.check('x', subject())).toBe(false);
  });

  it('denies unknown, malformed and failing permits', async () => {
    const host = new PermissionHost();
    host.register('throws', () => {
      throw new Error('nope');
    });
    for (const permit of ['totally_unknown', 'Role(master)', 'role (master)', 'role()', '', 'throws', 'a(b(c))']) {
      expect(await host.check(permit, subject({ sender: { id: 'u1', roles: ['master'], permissions: [] } }))).toBe(
        false,
      );
    }
  });

  it('does not grant from $sender.permissions by itself', async () => {
    const host = new PermissionHost();
    const s = toPermissionSubject({ $adapter: 'qq', $sender: { id: 'u1', permissions: ['can_deploy'] } });
    expect(s.sender?.permissions).toEqual(['can_deploy']);
    expect(await host.check('can_deploy', s)).toBe(false);
    host.register('can_deploy', (permit, sub) => sub.sender?.permissions.includes(permit) ?? false);
    expect(await host.check('can_deploy', s)).toBe(true);
  });
});

describe('PermissionHost.checkAll', () => {
  it('is AND across entries; empty passes', async () => {
    const host = new PermissionHost();
    expect(await host.checkAll([], subject())).toBe(true);
    expect(await host.checkAll(['adapter(qq)', 'group(g1)'], subject())).toBe(true);
    expect(await host.checkAll(['adapter(qq)', 'private()'], subject())).toBe(false);
    expect(await host.checkAll(['adapter(qq)', 'unknown_permit'], subject())).toBe(false);
  });
});
