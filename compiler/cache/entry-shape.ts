/**
 * The shape of one persisted unit-cache entry and of the output record, declared once and
 * checked when the cache file is read (cache/file.ts): an entry that does not match is dropped
 * and its unit parsed again, so a damaged cache costs a re-parse, never a crash or a wrong
 * manifest. The assertions at the end make a field added to the parse results (units.ts,
 * diagnostics.ts, schema/types.ts) without adding it here a type error.
 */
import {
  APPROVAL_MODES,
  CHANNEL_SCOPES,
  HOOK_EVENTS,
  PROMPT_LAYERS,
  PROMPT_PROFILES,
  PROMPT_RETENTIONS,
} from '@zhin-gen/runtime/define';
import { CATALOG, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import type { Entry, OutputRecord } from './units.js';
import type { UnitRecord } from './unit-record.js';
import {
  array,
  boolean,
  compile,
  flat,
  jsonObject,
  number,
  object,
  oneOf,
  opaque,
  optional,
  record,
  string,
  union,
  variants,
  type Check,
  type Infer,
  type Same,
  type Shape,
} from './json-shape.js';

const loc = object({ file: string, line: number, column: number });

const diagnostic = object({
  code: oneOf(Object.keys(CATALOG) as DiagnosticCode[]),
  severity: oneOf(['error', 'warning']),
  message: string,
  file: string,
  line: number,
  column: number,
  hint: optional(string),
  related: optional(array(object({ file: string, line: number, column: number, message: string }))),
});

const platformRef = object({ value: string, loc });
const named = object({ name: string, loc });
const scopes = array(oneOf(CHANNEL_SCOPES));
const strings = array(string);
const approval = oneOf(APPROVAL_MODES);

/** Positions of schema paths, carried by a snippet for schema errors (schema/locate.ts). */
const locations = optional(record(object({ line: number, column: number })));

/** The extractor's snippet (schema/types.ts SchemaSnippet), opaque to the parse result's type. */
const snippet = variants('kind', {
  inline: object({ kind: oneOf(['inline']), code: string, files: strings, locations }),
  static: object({ kind: oneOf(['static']), schema: jsonObject, files: strings }),
  fallback: object({ kind: oneOf(['fallback']), reason: string, locations }),
  refused: object({
    kind: oneOf(['refused']),
    file: string,
    line: number,
    column: number,
    why: string,
    files: strings,
  }),
});

/** A tool's parse data that its cache record keeps too (cache/unit-record.ts `ToolRecord`). */
const toolRecordFields = {
  loc,
  description: string,
  requiresApproval: approval,
  platforms: array(platformRef),
  scopes,
  permissions: strings,
  hidden: boolean,
  keywords: strings,
  tags: strings,
};

const toolData = object({
  kind: oneOf(['tool']),
  ...toolRecordFields,
  descriptionLoc: optional(loc),
  schema: optional(opaque<unknown>(snippet)),
  schemaLoc: optional(loc),
});

/** Every kind of unit data but a tool's (cache/unit-record.ts keeps these whole). */
const otherKinds = {
  'prompt-section': object({
    kind: oneOf(['prompt-section']),
    loc,
    title: string,
    content: optional(string),
    layer: oneOf(PROMPT_LAYERS),
    order: number,
    retention: oneOf(PROMPT_RETENTIONS),
    maxChars: optional(number),
    profiles: array(oneOf(PROMPT_PROFILES)),
    platforms: array(platformRef),
  }),
  hook: object({ kind: oneOf(['hook']), loc, events: array(oneOf(HOOK_EVENTS)) }),
  skill: object({
    kind: oneOf(['skill']),
    loc,
    description: string,
    declaredTools: array(named),
    platforms: strings,
    platformLocs: array(loc),
    scopes,
    permissions: strings,
    keywords: strings,
    tags: strings,
    always: boolean,
    instructions: string,
    passThrough: optional(
      object({
        license: optional(string),
        compatibility: optional(string),
        metadata: optional(jsonObject),
        allowedTools: optional(string),
      }),
    ),
  }),
  agent: object({
    kind: oneOf(['agent']),
    loc,
    description: string,
    platforms: array(named),
    declaredTools: array(named),
    model: optional(string),
    maxSteps: optional(number),
    system: string,
    boundaries: string,
    conventions: string,
  }),
  'plugin-entry': object({
    kind: oneOf(['plugin-entry']),
    runsSetup: boolean,
    conditionalSections: array(object({ localName: string, loc, platforms: array(platformRef) })),
    conditionalTools: array(
      object({
        localName: string,
        loc,
        description: string,
        descriptionLoc: optional(loc),
        requiresApproval: approval,
        platforms: strings,
        scopes,
        permissions: strings,
        hidden: boolean,
      }),
    ),
  }),
};

const unitData = variants('kind', { tool: toolData, ...otherKinds });
const otherData = variants('kind', otherKinds);

const unitResult = object({ data: optional(unitData), diagnostics: array(diagnostic), dependencies: strings });

const schemaOutcome = union(
  object({
    ok: oneOf([true]),
    schema: jsonObject,
    origin: oneOf(['zod', 'json', 'none']),
    via: oneOf(['none', 'static', 'inline', 'bundle']),
    sources: optional(strings),
  }),
  object({
    ok: oneOf([false]),
    diagnostics: array(diagnostic),
    path: optional(array(union(string, number))),
    sources: optional(strings),
  }),
);

/** A unit's file stamps, flat (cache/flat-stamps.ts): the entries' and the index's alike. */
const fileStamps = flat(string, number, number, string, number);

const entry = object({
  files: strings,
  stamps: fileStamps,
  hash: string,
  result: unitResult,
  schema: optional(schemaOutcome),
  resultPrint: optional(string),
  schemaPrint: optional(string),
});

const outcomeRecord = union(
  object({
    ok: oneOf([true]),
    origin: oneOf(['zod', 'json', 'none']),
    via: oneOf(['none', 'static', 'inline', 'bundle']),
    sources: optional(strings),
    keywords: strings,
    validator: optional(object({ versions: string, key: string })),
  }),
  object({
    ok: oneOf([false]),
    diagnostics: array(diagnostic),
    path: optional(array(union(string, number))),
    sources: optional(strings),
  }),
);

const unitRecord = object({
  kind: optional(oneOf(['tool', 'prompt-section', 'hook', 'skill', 'agent', 'plugin-entry'])),
  diagnostics: array(diagnostic),
  dependencies: strings,
  resultPrint: optional(string),
  schemaPrint: optional(string),
  tool: optional(object(toolRecordFields)),
  outcome: optional(outcomeRecord),
  data: optional(otherData),
});

const output = object({ digest: string, file: string, changedMs: number, size: number, ino: number });

// Compile-time: each declaration is exactly the type it guards (see Same in json-shape.ts).
const exact: readonly [
  Same<Infer<typeof diagnostic>, Diagnostic>,
  Same<Infer<typeof unitResult>, UnitResult>,
  Same<Infer<typeof schemaOutcome>, SchemaOutcome>,
  Same<Infer<typeof entry>, Entry>,
  Same<Infer<typeof output>, OutputRecord>,
  Same<Infer<typeof unitRecord>, UnitRecord>,
] = [true, true, true, true, true, true];
void exact;

// The in-memory types differ from the declarations only in mutability (asserted above).
export const isEntry: Check<Entry> = compile(entry as Shape<unknown> as Shape<Entry>);
export const isOutputRecord: Check<OutputRecord> = compile(output);
export const isDiagnostic: Check<Diagnostic> = compile(diagnostic);
export const isUnitRecord: Check<UnitRecord> = compile(unitRecord);
export const isFileStamps: Check<readonly (string | number)[]> = compile(fileStamps);
