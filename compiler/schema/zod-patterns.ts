/**
 * The `pattern` Zod emits for a string format, taken from Zod's own regex module (the CommonJS
 * build of the very file Zod's emitter uses): the static translation then cannot drift from
 * Zod when its regexes change. The build records them for the installed Zod version
 * (`zod-patterns.json`, ~10 ms of module loading saved per run); otherwise three small modules
 * load on first use, not Zod itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

function zodDir(): string {
  // `zod/package.json` is an exported path; the regex module itself is not, so it is required
  // by file from the same package directory.
  return dirname(require.resolve('zod/package.json'));
}

function zodRegexes(): ZodRegexes {
  regexes ??= require(join(zodDir(), 'v4', 'core', 'regexes.cjs')) as ZodRegexes;
  return regexes;
}

/**
 * The sources the build took from the installed Zod (scripts/build.mjs), while that version is
 * still the one installed; `undefined` when running from the sources or after an upgrade.
 */
function builtSources(): Partial<Record<StringFormat, string>> | undefined {
  try {
    const built = JSON.parse(readFileSync(fileURLToPath(new URL('./zod-patterns.json', import.meta.url)), 'utf8')) as {
      zod?: unknown;
      patterns?: Partial<Record<StringFormat, string>>;
    };
    const installed = (JSON.parse(readFileSync(join(zodDir(), 'package.json'), 'utf8')) as { version?: unknown })
      .version;
    return built.zod === installed ? built.patterns : undefined;
  } catch {
    return undefined;
  }
}

let built: Partial<Record<StringFormat, string>> | undefined | null = null;

function patternOf(format: StringFormat): RegExp | undefined {
  switch (format) {
    case 'email':
      return zodRegexes().email;
    case 'guid':
      return zodRegexes().guid;
    case 'uuid':
      return zodRegexes().uuid();
    case 'date':
      return zodRegexes().date;
    // `z.string().datetime()` without options: no offset, no local time, any precision.
    case 'datetime':
      return zodRegexes().datetime({ precision: null, offset: false, local: false });
    case 'url':
      return undefined;
  }
}

/** `pattern` of a format check without options; `undefined` when Zod emits none (`url`). */
export function zodPattern(format: StringFormat): string | undefined {
  if (!sources.has(format)) {
    if (built === null) built = builtSources();
    sources.set(format, format === 'url' ? undefined : (built?.[format] ?? patternOf(format)?.source));
  }
  return sources.get(format);
}
