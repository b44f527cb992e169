/**
 * The `pattern` Zod emits for a string format, taken from Zod's own regex module (the CommonJS
 * build of the very file Zod's emitter uses): the static translation then cannot drift from
 * Zod when its regexes change. Loads three small modules on first use, not Zod itself.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type StringFormat = 'email' | 'url' | 'uuid' | 'guid' | 'datetime' | 'date';

interface ZodRegexes {
  readonly email: RegExp;
  readonly guid: RegExp;
  readonly date: RegExp;
  uuid(version?: number): RegExp;
  datetime(args: { precision: number | null; offset: boolean; local: boolean }): RegExp;
}

const require = createRequire(import.meta.url);
let regexes: ZodRegexes | undefined;
const sources = new Map<StringFormat, string | undefined>();

function zodRegexes(): ZodRegexes {
  // `zod/package.json` is an exported path; the regex module itself is not, so it is required
  // by file from the same package directory.
  regexes ??= require(join(dirname(require.resolve('zod/package.json')), 'v4', 'core', 'regexes.cjs')) as ZodRegexes;
  return regexes;
}

function patternOf(format: StringFormat): RegExp | undefined {
  switch (format) {
    case 'email': return zodRegexes().email;
    case 'guid': return zodRegexes().guid;
    case 'uuid': return zodRegexes().uuid();
    case 'date': return zodRegexes().date;
    // `z.string().datetime()` without options: no offset, no local time, any precision.
    case 'datetime': return zodRegexes().datetime({ precision: null, offset: false, local: false });
    case 'url': return undefined;
  }
}

/** `pattern` of a format check without options; `undefined` when Zod emits none (`url`). */
export function zodPattern(format: StringFormat): string | undefined {
  if (!sources.has(format)) sources.set(format, patternOf(format)?.source);
  return sources.get(format);
}
