/**
 * Permit evaluation (docs/runtime.md). Syntax comes from `permit-syntax.ts` (shared with the compiler);
 * this module decides whether a permit passes for a subject. Every path that is not an explicit
 * grant denies: unknown kinds, malformed permits, missing checkers and throwing checkers.
 */
import { CHANNEL_SCOPES, type ChannelScope } from '../contract/enums.js';
import { parsePermitSyntax } from '../contract/permit-syntax.js';

/** The IM message shape the seeds use (`$adapter`, `$channel`, `$sender`). */
export interface ImMessage {
  /** Adapter name; compared as `String(message.$adapter)`. */
  readonly $adapter: string | { toString(): string };
  readonly $channel?: { readonly id: string | number; readonly type?: string };
  readonly $sender?: {
    readonly id: string | number;
    readonly role?: string | readonly string[];
    readonly permissions?: readonly string[];
  };
}

/** What permits are checked against: a normalised projection of an IM message. */
export interface PermissionSubject {
  readonly adapter?: string;
  readonly scene?: { readonly id: string; readonly type: string };
  readonly sender?: {
    readonly id: string;
    readonly roles: readonly string[];
    /** Passed through for custom checkers; the runtime never grants anything from it by itself. */
    readonly permissions: readonly string[];
  };
}

/** The scene permits (`group(…)`, `private(…)`, `channel(…)`) name the channel scopes. */
export type SceneKind = ChannelScope;

export type ParsedPermit =
  | { readonly kind: 'adapter' | 'user' | 'role'; readonly text: string; readonly values: readonly string[] }
  /** `values` contains `'*'` for the wildcard forms `private()` / `private(*)`. */
  | { readonly kind: SceneKind; readonly text: string; readonly values: readonly string[] }
  | { readonly kind: 'platform'; readonly text: string; readonly adapter: string; readonly permission: string }
  /** Bare names (`can_deploy`) and unknown call forms (`feature(x)`): only registered checkers grant them. */
  | { readonly kind: 'custom'; readonly text: string }
  | { readonly kind: 'invalid'; readonly text: string; readonly reason: string };

export type PermissionChecker = (permit: string, subject: PermissionSubject) => boolean | Promise<boolean>;
export type PlatformPermissionChecker = (permission: string, subject: PermissionSubject) => boolean | Promise<boolean>;
export type Disposer = () => void;

export function parsePermit(text: string): ParsedPermit {
  const syntax = parsePermitSyntax(text);
  if (!syntax.ok) return { kind: 'invalid', text: String(text), reason: syntax.reason };
  if (syntax.form === 'bare' || !syntax.builtin) return { kind: 'custom', text };
  const kind = syntax.kind;
  if (kind === 'platform') return { kind, text, adapter: syntax.args[0]!, permission: syntax.args[1]! };
  if ((CHANNEL_SCOPES as readonly string[]).includes(kind)) {
    // An empty argument is the wildcard only when it is the sole content (`private()`); a stray
    // trailing comma (`group(g1,)`) must not silently widen the permit to every group.
    const named = syntax.args.filter((arg) => arg !== '');
    const values = named.length === 0 ? ['*'] : named;
    return { kind: kind as SceneKind, text, values };
  }
  if (kind === 'adapter' || kind === 'user' || kind === 'role') return { kind, text, values: syntax.args };
  return { kind: 'invalid', text, reason: `unsupported permit kind "${kind}"` };
}

/**
 * `adapter(qq)` matches the adapter `qq` and a path-style adapter name whose last segment is
 * `qq` (`adapters/qq`, as adapters registered by package path are named). It never matches by
 * prefix (`qq-guild`, `icqq`): a permit must not widen to adapters it does not name.
 */
export function adapterMatches(subjectAdapter: string | undefined, wanted: string): boolean {
  if (subjectAdapter === undefined || subjectAdapter === '') return false;
  if (subjectAdapter === wanted) return true;
  const slash = subjectAdapter.lastIndexOf('/');
  return slash >= 0 && subjectAdapter.slice(slash + 1) === wanted;
}

/** `master` implies `trusted`; nothing else is implied (docs/runtime.md). */
export function expandRoles(roles: readonly string[]): ReadonlySet<string> {
  const expanded = new Set(roles);
  if (expanded.has('master')) expanded.add('trusted');
  return expanded;
}

export function toPermissionSubject(message: ImMessage): PermissionSubject {
  const sender = message.$sender;
  const role = sender?.role;
  const roles = role === undefined ? [] : typeof role === 'string' ? [role] : [...role];
  return {
    adapter: String(message.$adapter),
    // A message without a channel type is a private conversation.
    scene: { id: String(message.$channel?.id ?? ''), type: message.$channel?.type || 'private' },
    ...(sender ? { sender: { id: String(sender.id), roles, permissions: [...(sender.permissions ?? [])] } } : {}),
  };
}

// A permit's parse depends on its text alone; turns ask the same few permits again and again.
const parsedPermits = new Map<string, ParsedPermit>();

function parsedPermit(text: string): ParsedPermit {
  let parsed = parsedPermits.get(text);
  if (parsed === undefined) {
    parsed = parsePermit(text);
    if ('values' in parsed) Object.freeze(parsed.values);
    Object.freeze(parsed);
    if (typeof text === 'string') parsedPermits.set(text, parsed);
    if (parsedPermits.size > 1024) parsedPermits.delete(parsedPermits.keys().next().value!);
  }
  return parsed;
}

interface CustomEntry {
  readonly matcher: string | RegExp;
  readonly checker: PermissionChecker;
}

/** Evaluation order: builtin kinds → `platform(…)` → registered custom checkers → deny. */
export class PermissionHost {
  readonly #custom: CustomEntry[] = [];
  readonly #platform = new Map<string, PlatformPermissionChecker[]>();

  async check(permit: string, subject: PermissionSubject): Promise<boolean> {
    const parsed = parsedPermit(permit);
    try {
      switch (parsed.kind) {
        case 'invalid':
          return false;
        case 'adapter':
          return parsed.values.some((value) => adapterMatches(subject.adapter, value));
        case 'user':
          return subject.sender !== undefined && parsed.values.includes(subject.sender.id);
        case 'role': {
          if (!subject.sender) return false;
          const roles = expandRoles(subject.sender.roles);
          return parsed.values.some((value) => roles.has(value));
        }
        case 'group':
        case 'private':
        case 'channel': {
          const scene = subject.scene;
          if (!scene || scene.type !== parsed.kind) return false;
          return parsed.values.some((value) => value === '*' || value === scene.id);
        }
        case 'platform': {
          // A platform permit only speaks for its own adapter's turns.
          if (!adapterMatches(subject.adapter, parsed.adapter)) return false;
          const checkers = this.#platform.get(parsed.adapter);
          const checker = checkers?.[checkers.length - 1];
          return checker ? (await checker(parsed.permission, subject)) === true : false;
        }
        case 'custom': {
          for (const entry of [...this.#custom]) {
            const matches = typeof entry.matcher === 'string' ? entry.matcher === permit : entry.matcher.test(permit);
            if (matches && (await entry.checker(permit, subject)) === true) return true;
          }
          return false;
        }
      }
    } catch {
      // A checker that throws has not granted anything.
      return false;
    }
  }

  /** AND across entries; an empty list passes. */
  async checkAll(permits: readonly string[], subject: PermissionSubject): Promise<boolean> {
    for (const permit of permits) {
      if (!(await this.check(permit, subject))) return false;
    }
    return true;
  }

  /** The latest registration for an adapter decides; disposing it restores the previous one. */
  registerPlatform(adapter: string, checker: PlatformPermissionChecker): Disposer {
    const key = String(adapter);
    const list = this.#platform.get(key) ?? [];
    list.push(checker);
    this.#platform.set(key, list);
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      const current = this.#platform.get(key);
      const index = current ? current.lastIndexOf(checker) : -1;
      if (current && index >= 0) current.splice(index, 1);
      if (current && current.length === 0) this.#platform.delete(key);
    };
  }

  /**
   * Custom permits by exact name or RegExp. Builtin kinds cannot be overridden (they are decided
   * before custom checkers run), so a plugin cannot loosen `role(master)` by registering it.
   */
  register(name: string | RegExp, checker: PermissionChecker): Disposer {
    // Stateful flags would make `test()` alternate between calls.
    const matcher = typeof name === 'string' ? name : new RegExp(name.source, name.flags.replace(/[gy]/g, ''));
    const entry: CustomEntry = Object.freeze({ matcher, checker });
    this.#custom.push(entry);
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      const index = this.#custom.indexOf(entry);
      if (index >= 0) this.#custom.splice(index, 1);
    };
  }
}
