/**
 * agent.json parser (docs/authoring.md). Strict JSON (no comments, no trailing commas) parsed with
 * jsonc-parser so every value keeps its offset; validated with ajv against the schema the
 * package ships (compiler/schema/agent.schema.json), so editors and zhin-gen agree by
 * construction. Each ajv error is mapped back to the exact node through its instancePath.
 *
 * Pure: the caller passes the text. A BOM is skipped and is not a column; CRLF needs no
 * rewriting because "\r" only ever ends a line, so line/column are those of the original file.
 */
// The named export: ajv is CommonJS and its default export differs between Node ESM and bundlers.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as Jsonc from 'jsonc-parser';
import { lazyRequire } from '../util/lazy.js';
import schema from '../schema/agent.schema.json' with { type: 'json' };
import {
  compareDiagnostics,
  diag,
  lineStarts,
  positionAt,
  type Diagnostic,
  type DiagnosticCode,
  type SourceLocation,
} from '../diagnostics.js';
import { codePointLength, MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';
import { describeValue, stripBom, TODO_MARK } from './manifest-values.js';
import { firstTooDeep, MAX_NESTING } from './depth.js';

// ── types ─────────────────────────────────────────────────────────────────────

export const AGENT_JSON_KEYS = ['name', 'description', 'tools', 'platforms', 'model', 'maxSteps'] as const;
/** Also accepted (editor hint), never read: `$schema`. */
export const AGENT_JSON_IGNORED_KEYS = ['$schema'] as const;
export type AgentJsonKey = (typeof AGENT_JSON_KEYS)[number];

export interface AgentJsonInput {
  /** POSIX path relative to the project root, used in diagnostics. */
  readonly file: string;
  readonly text: string;
  /** Name of the agent directory: the agent's identity, which `name` must equal when given. */
  readonly dirName: string;
}

import type { NamedEntry } from './manifest-values.js';
export type { NamedEntry };

export interface ParsedAgentJson {
  /** The directory name (docs/authoring.md); equals `name` when that is given and valid. */
  readonly name: string;
  /** Trimmed. */
  readonly description: string;
  /** `tools` entries (qualifiedNames of plugin-placed tools) with positions, resolved later. */
  readonly declaredTools: readonly NamedEntry[];
  /** Non-empty: a platform agent (auto-selected for these adapters). */
  readonly platforms: readonly NamedEntry[];
  readonly model?: string;
  readonly maxSteps?: number;
  /** The root object's "{". */
  readonly loc: SourceLocation;
  /** Where each present known key is written. */
  readonly keyLocs: Readonly<Partial<Record<AgentJsonKey, SourceLocation>>>;
}

export interface AgentJsonResult {
  /** Present whenever the file is syntactically valid JSON with an object root. */
  readonly agent?: ParsedAgentJson;
  readonly diagnostics: Diagnostic[];
}

// ── schema ────────────────────────────────────────────────────────────────────

let validator: ValidateFunction | undefined;
/** Compiled once per process, on first use. */
const ajv2020 = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const jsoncParser = lazyRequire<typeof Jsonc>('jsonc-parser');

export function agentSchemaValidator(): ValidateFunction {
  // validateSchema: false — the schema is ours (a test checks it against the meta-schema);
  // validating it on every start compiled ajv's whole 2020-12 meta-schema, ~75 ms per run.
  if (!validator)
    validator = new (ajv2020().Ajv2020)({ allErrors: true, strict: true, validateSchema: false }).compile(schema);
  return validator;
}

export const AGENT_SCHEMA: Readonly<Record<string, unknown>> = schema;

// ── parser ────────────────────────────────────────────────────────────────────

const PARSE_ERROR_TEXT: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a ":" was expected',
  CommaExpected: 'a "," was expected',
  CloseBraceExpected: 'a closing "}" was expected',
  CloseBracketExpected: 'a closing "]" was expected',
  EndOfFileExpected: 'the document should end after the first value',
  InvalidCommentToken: 'comments are not allowed in agent.json',
  UnexpectedEndOfComment: 'comments are not allowed in agent.json',
  UnexpectedEndOfString: 'the string is not closed',
  UnexpectedEndOfNumber: 'the number is not complete',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape sequence',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

export function parseAgentJson(input: AgentJsonInput): AgentJsonResult {
  try {
    return parse(input);
  } catch (error) {
    // Bad input must never stop the run; a throw here is a bug in this parser or a library.
    const message = error instanceof Error ? error.message : String(error);
    return {
      diagnostics: [diag('ZG9001', { file: input.file, message: `agent.json could not be parsed: ${message}` })],
    };
  }
}

function parse(input: AgentJsonInput): AgentJsonResult {
  const { file, dirName } = input;
  const text = stripBom(input.text);
  const starts = lineStarts(text);
  const locAt = (offset: number): SourceLocation => ({ file, ...positionAt(starts, offset) });
  const diagnostics: Diagnostic[] = [];
  const report = (code: DiagnosticCode, offset: number, message: string): void => {
    diagnostics.push(diag(code, { ...locAt(offset), message }));
  };
  const done = (agent?: ParsedAgentJson): AgentJsonResult => ({
    ...(agent ? { agent } : {}),
    diagnostics: diagnostics.sort(compareDiagnostics),
  });

  const placeholder = text.indexOf(TODO_MARK);
  if (placeholder !== -1)
    report(
      'ZG4018',
      placeholder,
      'agent.json still holds a placeholder zhin-gen migrate wrote (the model would be sent it)',
    );
  if (text.trim() === '') {
    report('ZG4010', 0, 'agent.json is empty; it must be a JSON object with at least "description"');
    return done();
  }
  // jsonc-parser, ajv and the walks below recurse once per level: a value nested deeper than
  // any agent.json needs is refused before any of them runs.
  const deep = firstTooDeep(text, 'json');
  if (deep !== undefined) {
    report('ZG4011', deep, `agent.json is nested too deeply to be read (more than ${MAX_NESTING} levels of brackets)`);
    return done();
  }
  const jsonc = jsoncParser();
  const errors: Jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const reported = new Set<number>();
  for (const error of errors) {
    const code = jsonc.printParseErrorCode(error.error);
    let offset = error.offset;
    let message = PARSE_ERROR_TEXT[code] ?? code;
    // jsonc reports a trailing comma at the bracket after it; point at the comma itself.
    const before = /,\s*$/.exec(text.slice(0, offset));
    if (
      (code === 'PropertyNameExpected' || code === 'ValueExpected') &&
      before &&
      /^\s*[}\]]/.test(text.slice(offset))
    ) {
      offset = before.index;
      message = 'trailing commas are not allowed in agent.json';
    }
    if (reported.has(offset)) continue;
    reported.add(offset);
    const found = text.slice(offset, offset + Math.max(error.length, 1));
    report(
      'ZG4010',
      offset,
      offset >= text.length
        ? `${message} (at the end of the file)`
        : `${message}, found ${JSON.stringify(found.slice(0, 20))}`,
    );
  }
  if (errors.length > 0 || !root) return done();

  if (root.type !== 'object') {
    report('ZG4006', root.offset, `agent.json must be a JSON object, got ${describeValue(jsonc.getNodeValue(root))}`);
    return done();
  }

  // Duplicate keys are legal JSON but ambiguous (first or last wins depends on the reader).
  const keyLocs: Partial<Record<AgentJsonKey, SourceLocation>> = {};
  const seen = new Set<string>();
  for (const property of root.children ?? []) {
    const keyNode = property.children?.[0];
    if (!keyNode) continue;
    const key = String(keyNode.value);
    if (seen.has(key))
      report('ZG4010', keyNode.offset, `duplicate key ${JSON.stringify(key)} in agent.json; each key may appear once`);
    seen.add(key);
    if ((AGENT_JSON_KEYS as readonly string[]).includes(key)) keyLocs[key as AgentJsonKey] ??= locAt(keyNode.offset);
  }

  const value = jsonc.getNodeValue(root) as Record<string, unknown>;
  const validate = agentSchemaValidator();
  const invalid = new Set<string>();
  if (!validate(value)) {
    for (const error of validate.errors ?? []) {
      const mapped = mapSchemaError(error, root, value);
      if (!mapped || invalid.has(mapped.path)) continue;
      invalid.add(mapped.path);
      report(mapped.code, mapped.offset, mapped.message);
    }
  }

  if (typeof value.name === 'string' && value.name !== dirName) {
    const node = jsonc.findNodeAtLocation(root, ['name']);
    report(
      'ZG4002',
      node?.offset ?? root.offset,
      `"name" is ${JSON.stringify(value.name)} but the agent directory is ${JSON.stringify(dirName)}; they must be equal (or leave "name" out)`,
    );
  }

  const entries = (key: 'tools' | 'platforms'): NamedEntry[] => {
    const list = value[key];
    if (!Array.isArray(list) || invalid.has(`/${key}`)) return [];
    const out: NamedEntry[] = [];
    list.forEach((item, index) => {
      if (typeof item !== 'string' || invalid.has(`/${key}/${index}`)) return;
      const node = jsonc.findNodeAtLocation(root, [key, index]);
      const offset = node?.offset ?? root.offset;
      // A second entry of one name is left out where it is written (a platform twice read as two agents).
      if (out.some((entry) => entry.name === item))
        report('ZG4006', offset, `"${key}" must be free of duplicates (${JSON.stringify(item)} is listed twice)`);
      else out.push({ name: item, loc: locAt(offset) });
    });
    return out;
  };

  const description =
    typeof value.description === 'string' && !invalid.has('/description') ? value.description.trim() : '';
  const model = typeof value.model === 'string' && !invalid.has('/model') ? value.model : undefined;
  const maxSteps = typeof value.maxSteps === 'number' && !invalid.has('/maxSteps') ? value.maxSteps : undefined;
  return done({
    name: dirName,
    description,
    declaredTools: entries('tools'),
    platforms: entries('platforms'),
    ...(model !== undefined ? { model } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    loc: locAt(root.offset),
    keyLocs,
  });
}

// ── ajv error → diagnostic ────────────────────────────────────────────────────

interface MappedError {
  readonly code: DiagnosticCode;
  /** Instance path, to keep one diagnostic per value (ajv may report several keywords). */
  readonly path: string;
  readonly offset: number;
  readonly message: string;
}

/** Keys zhin.js's agent files use for one of agent.json's (dropping them would lift a limit). */
const EARLIER_KEYS: Readonly<Record<string, string>> = { max_iterations: 'maxSteps', maxIterations: 'maxSteps' };

const EXPECTED: Readonly<Record<string, string>> = {
  $schema: 'a string (the path or URL of agent.schema.json)',
  name: 'a string equal to the agent directory name',
  tools: 'an array of tool qualifiedNames (strings)',
  platforms: 'an array of adapter names (strings)',
  model: 'a non-empty string',
  maxSteps: 'a positive integer',
};

function mapSchemaError(error: ErrorObject, root: Jsonc.Node, value: Record<string, unknown>): MappedError | undefined {
  const path = decodePointer(error.instancePath);
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const keyNode = jsoncParser().findNodeAtLocation(root, [...path, key])?.parent?.children?.[0];
    const renamed = path.length === 0 && Object.hasOwn(EARLIER_KEYS, key) ? EARLIER_KEYS[key] : undefined;
    if (renamed !== undefined)
      return {
        code: 'ZG4019',
        path: `${error.instancePath}/${key}`,
        offset: keyNode?.offset ?? root.offset,
        message: `${JSON.stringify(key)} is zhin.js's name for ${JSON.stringify(renamed)}: zhin-gen reads "${renamed}", and would run the agent without this limit`,
      };
    return {
      code: 'ZG4004',
      path: `${error.instancePath}/${key}`,
      offset: keyNode?.offset ?? root.offset,
      message: `unknown key ${JSON.stringify(key)} in agent.json is ignored; known keys: ${AGENT_JSON_KEYS.join(', ')}`,
    };
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return {
      code: missing === 'description' ? 'ZG4003' : 'ZG4006',
      path: `${error.instancePath}/${missing}`,
      offset: root.offset,
      message:
        missing === 'description'
          ? `"description" is missing; give 1 to ${MAX_DESCRIPTION_CHARS} characters saying what the agent does`
          : `"${missing}" is missing`,
    };
  }
  const offset = jsoncParser().findNodeAtLocation(root, path)?.offset ?? root.offset;
  const actual = path.reduce<unknown>((v, seg) => (v as Record<string | number, unknown> | undefined)?.[seg], value);
  const [key, index] = path;
  if (key === 'description') {
    const text = typeof actual === 'string' ? actual : undefined;
    const message =
      text === undefined
        ? `"description" must be a string, got ${describeValue(actual)}`
        : error.keyword === 'maxLength'
          ? `"description" is ${codePointLength(text)} characters long; the limit is ${MAX_DESCRIPTION_CHARS}`
          : `"description" is empty; give 1 to ${MAX_DESCRIPTION_CHARS} characters`;
    return { code: 'ZG4003', path: error.instancePath, offset, message };
  }
  const message =
    key === undefined
      ? `agent.json ${error.message ?? 'is invalid'}`
      : index !== undefined
        ? `"${key}" entry ${Number(index) + 1} must be a non-empty string, got ${describeValue(actual)}`
        : `"${key}" must be ${EXPECTED[String(key)] ?? 'valid'}, got ${describeValue(actual)}`;
  return { code: 'ZG4006', path: error.instancePath, offset, message };
}

/** JSON Pointer → jsonc path; numeric segments index arrays. */
function decodePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : seg));
}
