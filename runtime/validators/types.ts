/**
 * The validator contract between the compiler's generated validator modules, the optional
 * runtime compiler (`@zhin-gen/runtime/ajv`) and the pipeline. It is Ajv's calling convention
 * (`true`, or `false` with `errors`), because the generated code is Ajv's standalone code and
 * the results must stay exactly what Ajv reports.
 */
import type { JsonSchema } from '../contract/manifest.js';

/** One validation error, as Ajv reports it (only the fields the runtime reads). */
export interface JsonValidationError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A compiled JSON Schema: `true` for valid input, otherwise `false` with `errors` set. */
export interface JsonValidateFunction {
  (data: unknown): boolean;
  errors?: readonly JsonValidationError[] | null;
}

/** What a generated validator module (and a manifest tool's `validator` loader) provides. */
export interface JsonValidatorModule {
  readonly default: JsonValidateFunction;
}

/**
 * Compiles JSON Schemas the compiler never saw: seam tools, `context.addTool()` with a JSON
 * Schema, hand-made manifests. Optional and explicit (`createCapabilityHost({ jsonSchemaValidator })`),
 * because every implementation evaluates generated code (`new Function`), which a strict
 * Content-Security-Policy and edge runtimes forbid. `@zhin-gen/runtime/ajv` provides one.
 */
export interface JsonSchemaValidator {
  /**
   * `scope` is the generation the tool belongs to: an implementation keeps what it compiles
   * per scope, so a retired generation's validators become garbage with it.
   */
  compile(schema: JsonSchema, scope: object): JsonValidateFunction | PromiseLike<JsonValidateFunction>;
}
