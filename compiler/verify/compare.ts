/**
 * Compares what a module really exports (reported by the child) with what the compiler read
 * statically and wrote into the manifest. Fields are normalised the way the runtime reads them
 * (an absent `requiresApproval` is 'on-risk', absent lists are empty, a description is trimmed
 * as the compiler trims it), so only differences the bot would act on are reported.
 */
import { DEFAULT_PROMPT_PROFILES, TOOL_POLICY_DEFAULTS } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import type { HookModel, PromptSectionModel, ToolModel } from '../model.js';
import { EMPTY_INPUT_SCHEMA, finishProjection } from '../schema/convert.js';
import type { DefinitionReport, JsonValue, Shown, VerifyKind } from './protocol.js';

/** One field as the manifest has it and as the runtime reads it from a definition. */
interface FieldRule {
  readonly name: string;
  readonly expected: JsonValue | undefined;
  /** Value the runtime assumes when the definition leaves the field out. */
  readonly absent?: JsonValue;
  readonly normalise?: (value: JsonValue) => JsonValue;
  readonly loc?: SourceLocation;
}

export interface Expectation {
  readonly kind: VerifyKind;
  /** `tool "weather"`, for messages. */
  readonly what: string;
  readonly loc: SourceLocation;
  readonly fields: readonly FieldRule[];
  /** Tools: the manifest's input schema. */
  readonly schema?: { readonly value: JsonValue; readonly loc: SourceLocation };
  /** The `kind` tag and function field the runtime checks before it uses the definition. */
  readonly shape?: { readonly tag: string; readonly fn: string; readonly helper: string };
}

const trim = (value: JsonValue): JsonValue => (typeof value === 'string' ? value.trim() : value);
/** Search words are read trimmed (validate/tool.ts). */
const trimEach = (value: JsonValue): JsonValue => (Array.isArray(value) ? value.map(trim) : value);

export function toolExpectation(tool: ToolModel): Expectation {
  return {
    kind: 'tool',
    what: `tool "${tool.qualifiedName}"`,
    loc: tool.loc,
    fields: [
      {
        name: 'description',
        expected: tool.description,
        normalise: trim,
        ...(tool.descriptionLoc ? { loc: tool.descriptionLoc } : {}),
      },
      // The runtime holds a loaded module to these too (runtime/contract/tool-policy.ts).
      { name: 'requiresApproval', expected: tool.requiresApproval, absent: TOOL_POLICY_DEFAULTS.requiresApproval },
      { name: 'platforms', expected: [...tool.platforms], absent: [...TOOL_POLICY_DEFAULTS.platforms] },
      { name: 'scopes', expected: [...tool.scopes], absent: [...TOOL_POLICY_DEFAULTS.scopes] },
      { name: 'permissions', expected: [...tool.permissions], absent: [...TOOL_POLICY_DEFAULTS.permissions] },
      { name: 'hidden', expected: tool.hidden, absent: false },
      // discover searches them: a computed list the static read left out is a divergence too.
      { name: 'keywords', expected: [...tool.keywords], absent: [], normalise: trimEach },
      { name: 'tags', expected: [...tool.tags], absent: [], normalise: trimEach },
    ],
    schema: { value: tool.inputSchema as JsonValue, loc: tool.schemaLoc ?? tool.loc },
    shape: { tag: 'agent-tool', fn: 'execute', helper: 'defineAgentTool' },
  };
}

export function hookExpectation(hook: HookModel): Expectation {
  return {
    kind: 'hook',
    what: `hook "${hook.name}"`,
    loc: hook.loc,
    fields: [{ name: 'events', expected: [...hook.events] }],
    shape: { tag: 'agent-hook', fn: 'handle', helper: 'defineAgentHook' },
  };
}

/** A prompt section's literal fields are inlined into the manifest (a computed content is loaded from the module). */
export function sectionExpectation(section: PromptSectionModel): Expectation {
  return {
    kind: 'prompt-section',
    what: `prompt section "${section.name}"`,
    loc: section.loc,
    fields: [
      { name: 'title', expected: section.title },
      // A content the module computes is what the runtime reads from it: nothing to compare.
      ...(section.content !== undefined ? [{ name: 'content', expected: section.content }] : []),
      { name: 'layer', expected: section.layer, absent: 'context' },
      { name: 'order', expected: section.order, absent: 50 },
      { name: 'retention', expected: section.retention, absent: 'preferred' },
      { name: 'maxChars', expected: section.maxChars },
      { name: 'profiles', expected: [...section.profiles], absent: [...DEFAULT_PROMPT_PROFILES] },
      { name: 'platforms', expected: [...section.platforms], absent: [] },
    ],
  };
}

const DIFFERS_HINT =
  'zhin-gen reads definitions without running them; this value is computed when the module loads (a helper call, a spread, an imported or mutated binding), so the manifest holds what the static read saw. Write the value as a literal (or a same-file const of literals) so both agree.';

export function compareReport(expected: Expectation, file: string, report: DefinitionReport): Diagnostic[] {
  if (report.notObject !== undefined) {
    return [
      diag('ZG2053', {
        ...expected.loc,
        file,
        message: `${expected.what}: the loaded module's default export is ${report.notObject}, not a definition object`,
      }),
    ];
  }
  const out: Diagnostic[] = [];
  const shape = expected.shape;
  if (shape) {
    const tag = report.fields.kind;
    const fn = report.fields[shape.fn];
    if (tag?.t !== 'json' || tag.v !== shape.tag || fn?.t !== 'other' || fn.what !== 'a function') {
      out.push(
        diag('ZG2053', {
          ...expected.loc,
          file,
          message: `${expected.what}: the loaded default export is not what ${shape.helper}(...) returns (kind ${shown(tag ?? { t: 'absent' })}, ${shape.fn} ${shown(fn ?? { t: 'absent' })}); the runtime rejects it`,
        }),
      );
      return out;
    }
  }
  for (const rule of expected.fields) {
    const actual = actualValue(report.fields[rule.name] ?? { t: 'absent' }, rule);
    const want =
      rule.expected === undefined ? undefined : rule.normalise ? rule.normalise(rule.expected) : rule.expected;
    if (actual.kind === 'value' && deepEqual(actual.value, want)) continue;
    const real =
      actual.kind === 'value'
        ? actual.value === undefined
          ? 'leaves it out'
          : `has ${preview(actual.value)}`
        : `has ${actual.what}`;
    const manifest = want === undefined ? 'leaves it out' : `has ${preview(want)}`;
    out.push(
      diag('ZG2054', {
        ...(rule.loc ?? expected.loc),
        file,
        message: `${expected.what}: \`${rule.name}\` differs: the loaded module ${real}, the manifest ${manifest}`,
        hint: DIFFERS_HINT,
      }),
    );
  }
  if (expected.schema) out.push(...compareSchema(expected, file, report));
  return out;
}

function compareSchema(expected: Expectation, file: string, report: DefinitionReport): Diagnostic[] {
  const schema = expected.schema!;
  let converted: ReturnType<typeof finishProjection> | { readonly ok: false; readonly message: string } | undefined;
  try {
    converted = report.schema ? finishProjection(report.schema) : undefined;
  } catch (error) {
    converted = { ok: false as const, message: error instanceof Error ? error.message : String(error) };
  }
  const at = { ...schema.loc, file };
  if (converted !== undefined && !converted.ok) {
    return [
      diag('ZG2054', {
        ...at,
        message: `${expected.what}: the loaded module's inputSchema cannot be converted (${converted.message}); the manifest has ${preview(schema.value)}`,
      }),
    ];
  }
  const real = (converted?.schema ?? EMPTY_INPUT_SCHEMA) as JsonValue;
  const where = firstDifference(real, schema.value, []);
  if (where === undefined) return [];
  const path = where.path.length > 0 ? ` at ${where.path.join('.')}` : '';
  return [
    diag('ZG2054', {
      ...at,
      message: `${expected.what}: \`inputSchema\` differs${path}: the loaded module has ${where.real === undefined ? 'nothing' : preview(where.real)}, the manifest ${where.manifest === undefined ? 'nothing' : preview(where.manifest)}`,
      hint: 'The manifest schema was obtained without running the module (statically or in an isolated VM with the relatively imported consts and functions it reads). Something the module does when it loads changes the schema; build the schema from literals and Zod calls only, or from values nothing modifies.',
    }),
  ];
}

type Actual =
  | { readonly kind: 'value'; readonly value: JsonValue | undefined }
  | { readonly kind: 'other'; readonly what: string };

function actualValue(field: Shown, rule: FieldRule): Actual {
  if (field.t === 'other') return { kind: 'other', what: field.what };
  if (field.t === 'absent') return { kind: 'value', value: rule.absent };
  return { kind: 'value', value: rule.normalise ? rule.normalise(field.v) : field.v };
}

function shown(field: Shown): string {
  return field.t === 'absent' ? 'missing' : field.t === 'other' ? field.what : preview(field.v);
}

function preview(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality; key order does not matter (it carries no meaning in a schema or list of fields). */
function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return firstDifference(a, b, []) === undefined;
}

function firstDifference(
  real: JsonValue | undefined,
  manifest: JsonValue | undefined,
  path: string[],
): { path: string[]; real: JsonValue | undefined; manifest: JsonValue | undefined } | undefined {
  if (Array.isArray(real) && Array.isArray(manifest)) {
    if (real.length !== manifest.length) return { path, real, manifest };
    for (let i = 0; i < real.length; i++) {
      const found = firstDifference(real[i], manifest[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(real) && isObject(manifest)) {
    const keys = new Set([...Object.keys(real), ...Object.keys(manifest)]);
    for (const key of keys) {
      const found = firstDifference(real[key], manifest[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  return real === manifest ? undefined : { path, real, manifest };
}
