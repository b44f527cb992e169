/**
 * Permit rule family: every declared permit must be able to pass at runtime (docs/runtime.md). A
 * builtin permit must parse; anything else must match a custom permit declared in the config
 * (`permits`: exact strings or `/regex/flags`), exactly as the runtime PermissionHost matches
 * them. Tools, conditional tools and SKILL.md share this one check.
 */
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { permitProblem } from '../parse/manifest-values.js';

export function validatePermits(
  what: string,
  permits: readonly { value: string; loc: SourceLocation }[],
  customPermits: readonly string[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const permit of permits) {
    const problem = permitProblem(permit.value, customPermits);
    if (problem)
      out.push(
        diag('ZG2008', { ...permit.loc, message: `${what}: permit "${permit.value}" can never pass: ${problem}` }),
      );
  }
  return out;
}
