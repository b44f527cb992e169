/**
 * `@zhin-gen/runtime/ajv`: the optional runtime JSON Schema compiler, for tools whose schema the
 * compiler never saw (seam tools, `context.addTool()` with a JSON Schema, hand-made manifests):
 *
 *   createCapabilityHost({ jsonSchemaValidator: ajvValidator() })
 *
 * `ajv` is not a dependency of the runtime (nor a peer: docs/packages.md says why): only a host
 * that imports this module installs it, and only such a host evaluates generated code (Ajv
 * compiles with `new Function`, which a strict Content-Security-Policy forbids). Ajv is imported
 * on the first compile, not at start-up. The options are the ones the compiler generates
 * validators with (compiler/emit/validators.ts), so both paths report the same errors.
 */
import type { JsonSchema } from '../contract/manifest.js';
import type { JsonSchemaValidator, JsonValidateFunction } from './types.js';

interface AjvInstance {
  compile(schema: object): JsonValidateFunction;
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance;

let ajvConstructor: Promise<AjvConstructor> | undefined;

function loadAjv(): Promise<AjvConstructor> {
  ajvConstructor ??= import('ajv/dist/2020.js').then((module: unknown) => {
    // CommonJS interop differs between hosts: `default` may be the class or the exports object.
    const outer = (module as { default?: unknown }).default ?? module;
    const inner = (outer as { default?: unknown }).default ?? outer;
    return inner as AjvConstructor;
  });
  return ajvConstructor;
}

/**
 * The Ajv options of every validator, generated (compiler/emit/validators.ts) or compiled here.
 * `strict: false` tolerates annotations the compiler keeps (e.g. `format` without ajv-formats);
 * `logger: false` keeps its "unknown format ignored" lines out of the host's logs;
 * `ownProperties`: a property is the input's own, so one named `toString` or `constructor` is not
 * found on Object.prototype (a required one would pass unsent, a typed one fail unsent).
 * `strictNumbers`: `strict: false` turns it off with the rest, and then `NaN` and `Infinity`
 * pass `type: 'number'` (and `Infinity` `type: 'integer'`): a host or seam caller's `NaN` amount
 * reached the tool, where Zod's `z.number()` refuses both.
 */
export const AJV_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({
  allErrors: false,
  strict: false,
  strictNumbers: true,
  addUsedSchema: false,
  logger: false,
  ownProperties: true,
});

/** A runtime JSON Schema compiler backed by Ajv (draft 2020-12). */
export function ajvValidator(): JsonSchemaValidator {
  const byScope = new WeakMap<object, AjvInstance>();
  return Object.freeze({
    async compile(schema: JsonSchema, scope: object): Promise<JsonValidateFunction> {
      let ajv = byScope.get(scope);
      if (!ajv) {
        const Ajv = await loadAjv();
        // One instance per generation: Ajv caches compiled schemas strongly, and a retired
        // generation's schemas must become garbage with it.
        ajv = new Ajv({ ...AJV_OPTIONS });
        byScope.set(scope, ajv);
      }
      return ajv.compile(schema);
    },
  });
}
