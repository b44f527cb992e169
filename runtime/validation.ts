/**
 * Input validation before every execution (SPEC §3.1, §7.4). The loaded definition's own
 * Standard Schema wins (Zod 4: exact messages, transforms and defaults reach `execute`);
 * otherwise the manifest's JSON Schema is compiled with Ajv, lazily, once per tool per
 * generation. Ajv is imported on first use only, so start-up never pays for it.
 */
import type { ExecutableTool, ToolBinding } from './capability.js';
import type { JsonSchema } from './manifest.js';

export type ValidationResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly path: string; readonly message: string };

interface AjvError {
  readonly instancePath: string;
  readonly message?: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}
type AjvValidate = ((value: unknown) => boolean) & { errors?: readonly AjvError[] | null };
interface AjvInstance {
  compile(schema: object): AjvValidate;
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance;

let ajvConstructor: Promise<AjvConstructor> | undefined;
const ajvByScope = new WeakMap<object, AjvInstance>();
const validators = new WeakMap<ToolBinding, AjvValidate>();

function loadAjv(): Promise<AjvConstructor> {
  ajvConstructor ??= import('ajv/dist/2020.js').then((module: unknown) => {
    // CommonJS interop differs between hosts: `default` may be the class or the exports object.
    const outer = (module as { default?: unknown }).default ?? module;
    const inner = (outer as { default?: unknown }).default ?? outer;
    return inner as AjvConstructor;
  });
  return ajvConstructor;
}

/** `['a', 0, { key: 'b' }]` → `/a/0/b`; the root is `(root)`. */
export function formatPath(segments: readonly unknown[]): string {
  if (segments.length === 0) return '(root)';
  return segments
    .map((segment) => {
      const key = typeof segment === 'object' && segment !== null && 'key' in segment ? (segment as { key: unknown }).key : segment;
      return `/${String(key)}`;
    })
    .join('');
}

async function validateStandard(executable: Required<Pick<ExecutableTool, 'standardSchema'>>, input: unknown): Promise<ValidationResult> {
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

function stripDialect(schema: JsonSchema): object {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

async function validateJson(binding: ToolBinding, scope: object, input: unknown): Promise<ValidationResult> {
  let validate = validators.get(binding);
  if (!validate) {
    let ajv = ajvByScope.get(scope);
    if (!ajv) {
      const Ajv = await loadAjv();
      // One instance per generation: Ajv caches compiled schemas strongly, and a retired
      // generation's schemas must become garbage with it. `strict: false` tolerates
      // annotations the compiler keeps (e.g. `format` without ajv-formats).
      ajv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false });
      ajvByScope.set(scope, ajv);
    }
    validate = ajv.compile(stripDialect(binding.inputSchema));
    validators.set(binding, validate);
  }
  if (validate(input)) return { ok: true, value: input };
  const error = validate.errors?.[0];
  if (!error) return { ok: false, path: '(root)', message: 'invalid input' };
  const missing = error.keyword === 'required' ? String(error.params.missingProperty ?? '') : '';
  const pointer = missing ? `${error.instancePath}/${missing}` : error.instancePath;
  return { ok: false, path: pointer === '' ? '(root)' : pointer, message: error.message ?? error.keyword };
}

/** `scope` is the generation: compiled validators live and die with it. */
export function validateInput(
  binding: ToolBinding,
  executable: ExecutableTool,
  input: unknown,
  scope: object,
): Promise<ValidationResult> {
  if (executable.standardSchema) return validateStandard({ standardSchema: executable.standardSchema }, input);
  return validateJson(binding, scope, input);
}
