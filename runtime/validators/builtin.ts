/**
 * Validators built into the runtime, for the JSON Schemas the runtime itself brings
 * (./builtin-schemas.ts). A tool whose schema is exactly one of them (same JSON text) validates
 * with the built-in one, so `ask_user`, `BuiltinToolService` and an `addTool` without a schema
 * never need a runtime JSON Schema compiler. Imported on first use, like a generated validator.
 */
import type { JsonSchema, LazyModule } from '../contract/manifest.js';
import { BUILTIN_SCHEMAS } from './builtin-schemas.js';
import type { JsonValidateFunction } from './types.js';

type BuiltinName = keyof typeof BUILTIN_SCHEMAS;

const LOADERS: Readonly<Record<BuiltinName, LazyModule<JsonValidateFunction>>> = {
  'ask-user': () => import('./generated/ask-user.gen.js'),
  question: () => import('./generated/question.gen.js'),
  'open-object': () => import('./generated/open-object.gen.js'),
};

let byText: ReadonlyMap<string, LazyModule<JsonValidateFunction>> | undefined;

export function builtinValidator(name: BuiltinName): LazyModule<JsonValidateFunction> {
  return LOADERS[name];
}

/**
 * Texts that mean exactly what a built-in schema means, each with that schema's validator: an
 * empty `properties` constrains nothing, and `{ type: 'object', properties: {} }` is what a
 * `setup()` tool without input is written with (the seed's own `addTool` example), so it needs no
 * runtime JSON Schema compiler either. Ajv answers both texts alike, errors included.
 */
const SAME_MEANING: readonly (readonly [JsonSchema, BuiltinName])[] = [
  [{ type: 'object', properties: {} }, 'open-object'],
];

/** The built-in validator of a schema with exactly this JSON text (or one of SAME_MEANING's), if there is one. */
export function builtinValidatorFor(schema: JsonSchema): LazyModule<JsonValidateFunction> | undefined {
  byText ??= new Map([
    ...Object.entries(BUILTIN_SCHEMAS).map(
      ([name, known]) => [JSON.stringify(known), LOADERS[name as BuiltinName]] as const,
    ),
    ...SAME_MEANING.map(([text, name]) => [JSON.stringify(text), LOADERS[name]] as const),
  ]);
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    // A schema that is not JSON (a cycle, a BigInt) is nobody's built-in schema.
    return undefined;
  }
  return byText.get(text);
}
