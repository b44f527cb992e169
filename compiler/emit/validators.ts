/**
 * Build-time JSON Schema validators (docs/runtime.md, "Validation"): a tool's `inputSchema` as a
 * self-contained ES module of plain code, so the runtime validates without Ajv and without
 * `new Function` (strict Content-Security-Policy, edge runtimes). The code is Ajv's own standalone
 * output for the options the runtime used to compile with, so results (error paths, messages)
 * are Ajv's; the few runtime helpers that output `require`s are inlined from Ajv's own sources.
 *
 * A pure function of the schema (and the Ajv and emitter versions, which are part of the key):
 * the same schema gives the same bytes in every process and every order, which is what lets a
 * validator file be named by its key and reused without being generated again.
 */
import { createRequire } from 'node:module';
import { sha256 } from '../util/hash.js';
import type { JsonSchema } from '../../runtime/contract/manifest.js';
import { AJV_OPTIONS as RUNTIME_AJV_OPTIONS } from '@zhin-gen/runtime/ajv';
import { typedValidatorCode } from './validator-typing.js';
import { GENERATED_MARK } from './mark.js';
import { escapeLiteral, str } from './literal.js';

const require = createRequire(import.meta.url);

/** Bump when the emitted text changes for the same schema and Ajv version. */
// 2: the written module ends with a seal line (write/validators.ts); 3: own properties only
// (Ajv's `ownProperties`: a property named `toString` is not found on Object.prototype); 4: a
// `.ts` module is typed instead of `@ts-nocheck` (validator-typing.ts); 5: reads of the data
// unnarrowed, unread locals read, unused labels and unreachable code left out, and a schema with
// an `$id` compiled (its `sourceURL` comment left out; its module used to throw); 6: numbers must
// be finite (Ajv's `strictNumbers`: `NaN` and `Infinity` passed `type: 'number'`); 7: an object
// of more than WIDE_OBJECT properties gets the all-errors code (its first-error code overflowed).
const EMITTER_VERSION = 8;

interface AjvLike {
  compile(schema: object): { readonly source?: unknown };
  removeSchema(schema: object): void;
  scope: { readonly opts: object };
}
interface AjvModules {
  readonly Ajv2020: new (options: object) => AjvLike;
  readonly ValueScope: new (options: object) => AjvLike['scope'];
  readonly standalone: (ajv: AjvLike, validate: unknown) => string;
  /** Ajv runtime helper sources by the name in `require("ajv/dist/runtime/<name>")`. */
  readonly helpers: Readonly<Record<string, string>>;
}

let modules: AjvModules | undefined;
let instance: AjvLike | undefined;
let allErrorsInstance: AjvLike | undefined;

function ajvModules(): AjvModules {
  if (modules) return modules;
  const helper = (name: string): string =>
    String((require(`ajv/dist/runtime/${name}`) as { default: unknown }).default);
  modules = {
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: AjvModules['Ajv2020'] }).Ajv2020,
    ValueScope: (require('ajv/dist/compile/codegen') as { ValueScope: AjvModules['ValueScope'] }).ValueScope,
    standalone: (require('ajv/dist/standalone') as { default: AjvModules['standalone'] }).default,
    helpers: {
      // fast-deep-equal, which Ajv's `equal` re-exports: `const`, `enum`, `uniqueItems`.
      equal: String(require('fast-deep-equal')),
      // Code points, not UTF-16 units: `minLength` / `maxLength`.
      ucs2length: helper('ucs2length'),
      // Thrown by `$async` schemas.
      validation_error: helper('validation_error'),
    },
  };
  return modules;
}

/**
 * What the runtime compiled with (runtime/turn/validation.ts before build-time validators; the
 * `@zhin-gen/runtime/ajv` option still does): same options, same code, same errors. The schema
 * was checked against the meta-schema when it was converted (schema/convert.ts), so it is not
 * validated again here; `logger: false` keeps "unknown format ignored" out of the build output.
 */
/** The runtime's options (one home: runtime/validators/ajv.ts), generating standalone ES modules. */
const AJV_OPTIONS = {
  ...RUNTIME_AJV_OPTIONS,
  validateSchema: false,
  code: { source: true, esm: true },
};

function ajv(allErrors: boolean): AjvLike {
  const { Ajv2020 } = ajvModules();
  if (allErrors) return (allErrorsInstance ??= new Ajv2020({ ...AJV_OPTIONS, allErrors: true }));
  instance ??= new Ajv2020(AJV_OPTIONS);
  return instance;
}

let stamp: string | undefined;

/**
 * The key of a schema's validator: also its file name, so equal schemas share one file, and a
 * file that exists under its key is current (the emitter and Ajv versions are part of the key).
 * Only Ajv's package.json is read for it: emitting a manifest never loads Ajv itself.
 */
export function validatorKey(schemaText: string): string {
  stamp ??= `zhin-gen validator ${EMITTER_VERSION}\0ajv ${(require('ajv/package.json') as { version: string }).version}\0`;
  return sha256(`${stamp}${schemaText}`).slice(0, 16);
}

let versions: string | undefined;

/**
 * The key of an empty text: it stands for the emitter and Ajv versions a recorded key was taken
 * with (cache/unit-record.ts), compared for every cached tool, so taken once.
 */
export function validatorVersionsKey(): string {
  versions ??= validatorKey('');
  return versions;
}

/** The type the module's default export is declared with (runtime/validators/types.ts). */
const EXPORT_TYPE =
  '{ (data: unknown): boolean; errors?: readonly { readonly instancePath: string; readonly keyword: string; readonly params: Readonly<Record<string, unknown>>; readonly message?: string }[] | null }';

export interface ValidatorModuleOptions {
  /** A `.ts` / `.mts` module: Ajv's code typed for a strict tsc (emit/validator-typing.ts), an explicitly typed export. */
  readonly typescript: boolean;
  /**
   * Report every error, not only the first: for the compiler's own manifest schemas, whose errors
   * each become a diagnostic (tools' validators stop at the first, as the runtime always did).
   */
  readonly allErrors?: boolean;
  /** What the header says the module is (default: a tool's input validator). */
  readonly purpose?: string;
}

/**
 * The module text for one schema. A schema Ajv cannot compile (the compiler refuses those before
 * emit, so this is a last line of defence) gives a module whose validator throws: the runtime
 * reports "schema could not be evaluated", as it did when it compiled the schema itself.
 */
export function emitValidatorModule(schema: JsonSchema, options: ValidatorModuleOptions): string {
  // A `.ts` module is checked with the bot's own tsconfig: typed, not exempted (validator-typing.ts).
  const typed = options.typescript;
  let body: string;
  try {
    body = compiledBody(schema, options.allErrors === true, typed);
  } catch (error) {
    const message = `zhin-gen: the input schema could not be compiled: ${error instanceof Error ? error.message : String(error)}`;
    const fallback = `function validate() {\n  throw new Error(${str(message)});\n}\n`;
    body = typed ? typedValidatorCode(fallback) : fallback;
  }
  const header = `${GENERATED_MARK} Do not edit: ${options.purpose ?? "a tool's input validator"}, generated from its JSON Schema.\n`;
  return `${header}${body}export default validate${typed ? ` as unknown as ${EXPORT_TYPE}` : ''};\n`;
}

/**
 * Past this many `properties` in one object, Ajv's first-error code nests a block per property
 * deeper than V8's stack lets Ajv (or the runtime's parser) handle: ~850 on Node's default stack
 * ("Maximum call stack size exceeded", and a validator that failed every call). Such schemas get
 * Ajv's all-errors code, flat, whose first error is the one the first-error code stops at (same
 * order), which is all the runtime reads. A fixed count, with margin for a smaller stack, and
 * never a caught overflow: the bytes must not depend on the machine that emits them.
 */
export const WIDE_OBJECT = 256;

/** The most `properties` any object of the schema has. */
function widestObject(schema: unknown): number {
  let widest = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    const properties = record.properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties))
      widest = Math.max(widest, Object.keys(properties).length);
    for (const key in record) stack.push(record[key]);
  }
  return widest;
}

function compiledBody(schema: JsonSchema, allErrors: boolean, typed: boolean): string {
  return validatorBody(schema, allErrors || widestObject(schema) > WIDE_OBJECT, typed);
}

/** An inlined helper's declaration, typed once per process (the same text for every schema). */
function helperDeclaration(name: string, typed: boolean): string {
  const { helpers } = ajvModules();
  const plain = `const __zhin_${name} = ${helpers[name]!};\n`;
  if (!typed) return plain;
  let known = typedHelpers.get(name);
  if (known === undefined) typedHelpers.set(name, (known = typedValidatorCode(plain)));
  return known;
}

const typedHelpers = new Map<string, string>();

/** Ajv's `sourceURL` comment of a schema with an `$id`: its JSON string literal, whatever it holds. */
const SOURCE_URL = /\/\*# sourceURL="(?:[^"\\\n]|\\.)*" \*\/;?/g;

/** Ajv's standalone code with its helpers inlined, ending in a function named `validate`. */
function validatorBody(schema: JsonSchema, allErrors: boolean, typed: boolean): string {
  const { ValueScope, standalone, helpers } = ajvModules();
  const compiler = ajv(allErrors);
  // A fresh name scope per schema: the names Ajv gives (`validate20`, `schema31`, `pattern4`)
  // count per scope, and the output must not depend on what was compiled before it.
  compiler.scope = new ValueScope({ ...compiler.scope.opts, scope: {} });
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  let code: string;
  try {
    code = standalone(compiler, compiler.compile(rest));
  } finally {
    compiler.removeSchema(rest);
  }
  const head = /^"use strict";export const validate = (validate\d+);export default \1;/.exec(code);
  if (!head) throw new Error('unexpected Ajv standalone output');
  // Ajv marks a schema with an `$id` with `/*# sourceURL="<the $id>" */`: the one comment it
  // prints. Left out whole (the `$id` is the schema's text, and a `*/` in it must not end the
  // comment early); escapeStrings refuses any other comment.
  let text = code.slice(head[0].length).replace(SOURCE_URL, '');
  const used: string[] = [];
  text = text.replace(/require\("ajv\/dist\/runtime\/([a-z_0-9]+)"\)\.default/g, (_match, name: string) => {
    if (!(name in helpers))
      throw new Error(`Ajv's validator code needs the runtime helper "${name}", which zhin-gen does not inline`);
    if (!used.includes(name)) used.push(name);
    return `__zhin_${name}`;
  });
  if (/\brequire\s*\(|\bimport\s*\(|\beval\s*\(|\bFunction\s*\(/.test(stripStrings(text))) {
    throw new Error('Ajv produced validator code that loads or evaluates code');
  }
  const inlined = used
    .sort()
    .map((name) => helperDeclaration(name, typed))
    .join('');
  const own = `${escapeStrings(text)}\nconst validate = ${head[1]};\n`;
  return `${inlined}${typed ? typedValidatorCode(own) : own}`;
}

/**
 * Ajv prints every value from the schema as a double-quoted JSON string. Inside those literals
 * `<` and `>` become `\u003c` / `\u003e` (the same value), so a schema string such as
 * `</script>` never appears in the text, and bidirectional and invisible characters are escaped
 * too, as in every other generated module (literal.ts `escapeLiteral`), and a
 * `"__proto__"` object key becomes a computed key (an own property, as in the schema). Ajv's
 * two fixed regular expression literals pass as they are; any other quote, a template literal,
 * or a comment outside a string means output this scanner does not understand: refused rather
 * than guessed at.
 */
export function escapeStrings(code: string): string {
  let out = '';
  let last = 0;
  const special = /["'`/]/g;
  for (let found = special.exec(code); found; found = special.exec(code)) {
    const i = found.index;
    const ch = code[i]!;
    if (ch === '"') {
      const end = stringEnd(code, i);
      const literal = escapeLiteral(code.slice(i, end));
      // `"__proto__": v` in an object literal sets the prototype instead of an own key: a schema
      // value such as `{ "enum": [{ "__proto__": … }] }` must stay the JSON it was.
      const key = literal === '"__proto__"' && code[end] === ':' && /[{,]\s*$/.test(code.slice(Math.max(0, i - 8), i));
      out += code.slice(last, i) + (key ? `[${literal}]` : literal);
      last = special.lastIndex = end;
      continue;
    }
    if (ch === '/') {
      const regex = REGEX_LITERALS.find((literal) => code.startsWith(literal, i));
      if (regex) special.lastIndex = i + regex.length;
      else if (code[i + 1] === '/' || code[i + 1] === '*')
        throw new Error("unexpected comment in Ajv's validator code");
      continue;
    }
    throw new Error("unexpected quote in Ajv's validator code");
  }
  return out + code.slice(last);
}

/**
 * The regular expression literals Ajv prints (JSON pointer escaping of a property name in an
 * error path: `key.replace(/~/g, "~0").replace(/\//g, "~1")`), fixed text, never from a schema.
 */
const REGEX_LITERALS = ['/~/g', '/\\//g'] as const;

/** The code with every string literal emptied (for looking at what is code). */
function stripStrings(code: string): string {
  return code.replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
}

/** Index just past the double-quoted literal that starts at `start`. */
function stringEnd(code: string, start: number): number {
  STRING.lastIndex = start;
  if (!STRING.test(code)) throw new Error("unterminated string in Ajv's validator code");
  return STRING.lastIndex;
}

const STRING = /"(?:[^"\\\n]|\\.)*"/y;
