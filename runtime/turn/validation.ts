/**
 * Input validation before every execution (docs/authoring.md, docs/runtime.md). The
 * loaded definition's own Standard Schema wins (Zod 4: exact messages, transforms and defaults
 * reach `execute`). Otherwise the tool's JSON Schema is checked by a compiled validator: the one
 * the compiler generated for it (a lazily imported module of plain code), one built into the
 * runtime (`ask_user`, a schema-less `addTool`), or — only when the host was given one — the
 * host's `jsonSchemaValidator` (`@zhin-gen/runtime/ajv`). Nothing here evaluates code or imports
 * Ajv, so the default path runs under a strict Content-Security-Policy and in edge runtimes.
 */
import { ToolUnavailableError } from './ask-user.js';
import type { ExecutableTool, ToolBinding } from '../generation/capability.js';
import type { JsonSchema } from '../contract/manifest.js';
import { builtinValidatorFor } from '../validators/builtin.js';
import type { JsonSchemaValidator, JsonValidateFunction } from '../validators/types.js';

export type ValidationResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly path: string; readonly message: string };

/** Where validation finds the host's runtime JSON Schema compiler: the generation. */
export interface ValidationScope {
  readonly jsonSchemaValidator?: JsonSchemaValidator;
}

/** Per binding (a binding belongs to one generation, so they die with it); failures are not kept. */
const validators = new WeakMap<ToolBinding, Promise<JsonValidateFunction>>();

/** `['a', 0, { key: 'b' }]` → `/a/0/b`; the root is `(root)`. */
export function formatPath(segments: readonly unknown[]): string {
  if (segments.length === 0) return '(root)';
  return segments
    .map((segment) => {
      const key =
        typeof segment === 'object' && segment !== null && 'key' in segment
          ? (segment as { key: unknown }).key
          : segment;
      return `/${String(key)}`;
    })
    .join('');
}

/**
 * Why a tool cannot be validated in this host, and what to do about it. The same words at
 * `host.load` (seam and `addTool` tools, known before any call) and at a call (a hand-made
 * manifest's JSON Schema tool, known only once its module shows it has no Standard Schema).
 */
export function missingValidatorMessage(name: string, origin: string): string {
  return (
    `tool "${name}" (${origin}) has a JSON Schema the compiler did not generate a validator for, ` +
    `and the host has no runtime JSON Schema validator: pass one, e.g. ` +
    `createCapabilityHost({ jsonSchemaValidator: ajvValidator() }), ajvValidator being exported by @zhin-gen/runtime/ajv (needs ajv installed: npm i ajv)`
  );
}

async function validateStandard(
  executable: Required<Pick<ExecutableTool, 'standardSchema'>>,
  input: unknown,
): Promise<ValidationResult> {
  const result = (await executable.standardSchema['~standard'].validate(input)) as {
    readonly value?: unknown;
    readonly issues?: readonly { readonly message: string; readonly path?: readonly unknown[] }[];
  };
  const issue = result.issues?.[0];
  if (result.issues) {
    return { ok: false, path: formatPath(issue?.path ?? []), message: issue?.message ?? 'invalid input' };
  }
  return { ok: true, value: result.value };
}

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

async function obtain(binding: ToolBinding, scope: ValidationScope): Promise<JsonValidateFunction> {
  // Generated for this tool, or built in for its exact schema (a hand-made manifest's `{ type: 'object' }`).
  const compiled = binding.validator ?? builtinValidatorFor(binding.inputSchema);
  if (compiled) {
    try {
      return (await compiled()).default;
    } catch (error) {
      // The generated validator module is not there (a deploy without the manifest's validators
      // folder): the tool cannot run here, which is not the input's fault. Said without the
      // module's path, which is the server's, not the model's.
      const code = (error as { readonly code?: unknown } | undefined)?.code;
      throw new ToolUnavailableError(
        `the input validator of tool "${binding.qualifiedName}" could not be loaded${typeof code === 'string' ? ` (${code})` : ''}: deploy the manifest's generated validators folder with it`,
      );
    }
  }
  const runtime = scope.jsonSchemaValidator;
  if (runtime) return runtime.compile(stripDialect(binding.inputSchema), scope);
  throw new ToolUnavailableError(missingValidatorMessage(binding.qualifiedName, `${binding.source} tool`));
}

function validatorFor(binding: ToolBinding, scope: ValidationScope): Promise<JsonValidateFunction> {
  let found = validators.get(binding);
  if (!found) {
    const pending = obtain(binding, scope);
    validators.set(binding, pending);
    // A failed import or compile is tried again next call: it must not poison the generation.
    pending.catch(() => {
      if (validators.get(binding) === pending) validators.delete(binding);
    });
    found = pending;
  }
  return found;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Ajv's first error as the pipeline reports it: a JSON pointer (`(root)`) and Ajv's message. */
export function checkJson(validate: JsonValidateFunction, input: unknown): ValidationResult {
  const verdict: unknown = validate(input);
  if (verdict === true) return { ok: true, value: input };
  // Only `true` admits: a validator that answers anything else (a promise, from an `$async`
  // schema compiled by `@zhin-gen/runtime/ajv`) refuses the input instead of passing it.
  if (verdict !== false) {
    // Ajv's promise rejects for invalid input: left unhandled, that rejection would end a Node process.
    if (isThenable(verdict)) Promise.resolve(verdict).catch(() => undefined);
    return { ok: false, path: '(root)', message: 'the input validator gave no true/false answer' };
  }
  const error = validate.errors?.[0];
  if (!error) return { ok: false, path: '(root)', message: 'invalid input' };
  const missing = error.keyword === 'required' ? String(error.params.missingProperty ?? '') : '';
  const pointer = missing ? `${error.instancePath}/${missing}` : error.instancePath;
  return { ok: false, path: pointer === '' ? '(root)' : pointer, message: error.message ?? error.keyword };
}

/** `scope` is the generation: runtime-compiled validators live and die with it. */
export async function validateInput(
  binding: ToolBinding,
  executable: ExecutableTool,
  input: unknown,
  scope: ValidationScope,
): Promise<ValidationResult> {
  if (executable.standardSchema) return validateStandard({ standardSchema: executable.standardSchema }, input);
  return checkJson(await validatorFor(binding, scope), input);
}
