/**
 * Permit rule family: every declared permit must be able to pass at runtime (SPEC §7.2). A
 * builtin permit must parse; a bare name must be a custom permit declared in the config
 * (`permits`: exact names or `/regex/` sources); anything else can never pass and is ZG2008.
 */
import { parsePermitSyntax } from '../../runtime/permit-syntax.js';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';

export interface CustomPermits {
  readonly names: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

export function compileCustomPermits(entries: readonly string[]): CustomPermits {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of entries) {
    const match = /^\/(.*)\/([a-z]*)$/.exec(entry);
    if (match) {
      try {
        patterns.push(new RegExp(match[1]!, match[2]));
        continue;
      } catch {
        // An invalid pattern is matched literally; config validation reports nothing finer.
      }
    }
    names.add(entry);
  }
  return { names, patterns };
}

function isCustom(custom: CustomPermits, permit: string, kind: string): boolean {
  return custom.names.has(permit) || custom.names.has(kind) || custom.patterns.some((re) => re.test(permit));
}

/** Returns a diagnostic message when the permit can never pass, else undefined. */
export function checkPermit(permit: string, custom: CustomPermits): string | undefined {
  const parsed = parsePermitSyntax(permit);
  if (!parsed.ok) return isCustom(custom, permit, permit) ? undefined : `Permit "${permit}" does not parse: ${parsed.reason}`;
  if (parsed.builtin) return undefined;
  if (isCustom(custom, permit, parsed.kind)) return undefined;
  return `Permit "${permit}" is neither a builtin permit nor a custom permit declared in the config \`permits\`, so it can never pass`;
}

export function validatePermits(what: string, permits: readonly { value: string; loc: SourceLocation }[], custom: CustomPermits): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const permit of permits) {
    const problem = checkPermit(permit.value, custom);
    if (problem) out.push(diag('ZG2008', { ...permit.loc, message: `${what}: ${problem}` }));
  }
  return out;
}
