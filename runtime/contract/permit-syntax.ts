/**
 * Permit string syntax (docs/runtime.md), shared by the compiler (static checks with positions) and
 * the runtime (PermissionHost). Only syntax lives here; whether a permit passes is decided by
 * the PermissionHost at runtime.
 */

export const BUILTIN_PERMIT_KINDS = ['adapter', 'group', 'private', 'channel', 'user', 'role', 'platform'] as const;
export type BuiltinPermitKind = (typeof BUILTIN_PERMIT_KINDS)[number];

export type PermitSyntax =
  | {
      readonly ok: true;
      readonly form: 'call';
      readonly kind: string;
      readonly builtin: boolean;
      readonly args: readonly string[];
    }
  | {
      readonly ok: true;
      readonly form: 'bare';
      readonly kind: string;
      readonly builtin: false;
      readonly args: readonly [];
    }
  | { readonly ok: false; readonly reason: string };

const CALL = /^([a-z][a-z0-9_-]*)\(([^()]*)\)$/;
const BARE = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]*$/;

export function isBuiltinPermitKind(kind: string): kind is BuiltinPermitKind {
  return (BUILTIN_PERMIT_KINDS as readonly string[]).includes(kind);
}

/**
 * `kind(a,b)` (commas mean OR inside one permit) or a bare custom permit name.
 * Kind names are exact and lowercase, with no space before `(`.
 */
export function parsePermitSyntax(text: string): PermitSyntax {
  if (typeof text !== 'string' || text.length === 0)
    return { ok: false, reason: 'a permit must be a non-empty string' };
  if (text !== text.trim()) return { ok: false, reason: 'a permit must not start or end with whitespace' };
  const call = CALL.exec(text);
  if (call) {
    const kind = call[1]!;
    const args = call[2]!.split(',').map((arg) => arg.trim());
    const builtin = isBuiltinPermitKind(kind);
    if (kind === 'platform') {
      if (args.length !== 2) return { ok: false, reason: 'platform(adapter,permission) takes exactly two arguments' };
      if (args[0] === '') return { ok: false, reason: 'platform(adapter,permission) needs an adapter name' };
      if (args[1] === '') return { ok: false, reason: 'platform(adapter,permission) needs a permission name' };
    }
    if (kind === 'adapter' || kind === 'role' || kind === 'user') {
      if (args.some((arg) => arg === '')) return { ok: false, reason: `${kind}(…) arguments must not be empty` };
    }
    return { ok: true, form: 'call', kind, builtin, args };
  }
  if (/^[A-Za-z][A-Za-z0-9_-]*\s+\(/.test(text)) return { ok: false, reason: 'no space is allowed before "("' };
  if (/^[A-Za-z0-9_-]*[A-Z][A-Za-z0-9_-]*\(/.test(text)) return { ok: false, reason: 'permit kinds are lowercase' };
  if (text.includes('(') || text.includes(')')) return { ok: false, reason: 'unbalanced or nested parentheses' };
  if (!BARE.test(text)) return { ok: false, reason: 'a custom permit name may use letters, digits and _ . : / -' };
  return { ok: true, form: 'bare', kind: text, builtin: false, args: [] };
}

const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;

/**
 * A custom permit of the compiler's config (`permits`): an exact name, or a `/regex/flags`
 * literal. For a literal, the pattern or why it is not one (the config's ZG1100).
 */
export function customPermitPattern(custom: string): { readonly regex?: RegExp; readonly error?: string } {
  const literal = REGEX_LITERAL.exec(custom);
  if (!literal) return {};
  try {
    // g and y would make test() stateful across calls; the runtime matches each permit afresh.
    return { regex: new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, '')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
