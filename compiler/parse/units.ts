/**
 * Parse stage orchestration: one capability unit → one plain, JSON-serialisable result (fields,
 * diagnostics, dependencies, content hash). Results are cached per unit by the compiler context,
 * so a unit whose files did not change is never read or parsed again.
 */
import type { Writable } from '../util/writable.js';
import type { ts as TS } from 'ts-morph';
import type { ApprovalMode, ChannelScope, HookEvent } from '@zhin-gen/runtime';
import { DEFAULT_APPROVAL_MODE } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import type { CapabilityUnit } from '../scan/layout.js';
import { checkUpwardImports } from '../validate/imports.js';
import { validateHook } from '../validate/hook.js';
import { validatePluginFields } from '../validate/plugin.js';
import { validatePromptSection, type PromptSectionFields } from '../validate/prompt-section.js';
import { validateToolFields, type ToolFields } from '../validate/tool.js';
import { validateAgentDirectory } from '../validate/agent-files.js';
import { checkSkillMd, type ParsedSkill } from '../validate/skill.js';
import { parseAgentJson } from './agent-json.js';
import { checkNewPlaceholder } from './manifest-values.js';
import { parseCode, type DefineHelper, type ParseCodeInput } from './definition.js';

export interface ToolUnitData extends ToolFields {
  readonly kind: 'tool';
  readonly loc: SourceLocation;
  /** Opaque schema-stage request payload (extracted snippet), if the tool has an inputSchema. */
  readonly schema?: unknown;
  readonly schemaLoc?: SourceLocation;
}

export interface SectionUnitData extends PromptSectionFields {
  readonly kind: 'prompt-section';
  readonly loc: SourceLocation;
}

export interface HookUnitData {
  readonly kind: 'hook';
  readonly loc: SourceLocation;
  readonly events: readonly HookEvent[];
}

export interface SkillUnitData {
  readonly kind: 'skill';
  readonly loc: SourceLocation;
  readonly description: string;
  readonly declaredTools: readonly { name: string; loc: SourceLocation }[];
  readonly platforms: readonly string[];
  readonly platformLocs: readonly SourceLocation[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly always: boolean;
  readonly instructions: string;
  /** The Agent Skills keys passed through to the manifest (ManifestSkill). */
  readonly passThrough?: {
    readonly license?: string;
    readonly compatibility?: string;
    readonly metadata?: { readonly [key: string]: unknown };
    readonly allowedTools?: string;
  };
}

export interface AgentUnitData {
  readonly kind: 'agent';
  readonly loc: SourceLocation;
  readonly description: string;
  readonly platforms: readonly { name: string; loc: SourceLocation }[];
  readonly declaredTools: readonly { name: string; loc: SourceLocation }[];
  readonly model?: string;
  readonly maxSteps?: number;
  readonly system: string;
  readonly boundaries: string;
  readonly conventions: string;
}

export interface PluginEntryData {
  readonly kind: 'plugin-entry';
  /** It default-exports zhin-gen's definePlugin: the manifest imports it and host.load() runs setup(). */
  readonly runsSetup: boolean;
  /** `context.addPromptSection('<literal>', …)`: checked like directory sections, registered at runtime. */
  readonly conditionalSections: readonly {
    localName: string;
    loc: SourceLocation;
    platforms: readonly { value: string; loc: SourceLocation }[];
  }[];
  readonly conditionalTools: readonly {
    localName: string;
    loc: SourceLocation;
    description: string;
    descriptionLoc?: SourceLocation;
    requiresApproval: ToolUnitData['requiresApproval'];
    platforms: readonly string[];
    scopes: readonly ChannelScope[];
    permissions: readonly string[];
    hidden: boolean;
  }[];
}

export type UnitData = ToolUnitData | SectionUnitData | HookUnitData | SkillUnitData | AgentUnitData | PluginEntryData;

export interface UnitResult {
  /** Undefined when the unit is too broken to take part in the manifest. */
  readonly data?: UnitData;
  readonly diagnostics: readonly Diagnostic[];
  /** Files (POSIX, relative to root) whose content this result depends on, besides the unit's own files. */
  readonly dependencies: readonly string[];
}

export interface ParseEnv {
  readonly ts: typeof TS;
  /** Reads a file (POSIX, relative to root) as text without BOM, or undefined when missing. */
  readFile(path: string): string | undefined;
  /** Why readFile returned undefined (for the diagnostic). */
  readProblem(path: string): string | undefined;
  readonly modules: readonly string[];
  /** Custom permits from the config (exact strings or `/regex/flags`). */
  readonly customPermits: readonly string[];
  readonly extractSchema?: (sf: TS.SourceFile, expression: TS.Expression, file: string) => unknown;
  /** AGENTS.md of the unit's plugin, when present. */
  agentsMdOf(pluginDir: string): { file: string; text: string } | undefined;
}

const HELPER: Record<'tool' | 'prompt-section' | 'hook', DefineHelper> = {
  tool: 'defineAgentTool',
  'prompt-section': 'defineAgentPromptSection',
  hook: 'defineAgentHook',
};

function unreadable(file: string, env: ParseEnv): UnitResult {
  return {
    diagnostics: [
      diag('ZG1006', { file, message: `Cannot read ${file}: ${env.readProblem(file) ?? 'it cannot be read'}` }),
    ],
    dependencies: [],
  };
}

function parseCodeUnit(unit: CapabilityUnit, env: ParseEnv): UnitResult {
  const file = unit.entry!;
  const text = env.readFile(file);
  if (text === undefined) return unreadable(file, env);
  const kind = unit.kind as 'tool' | 'prompt-section' | 'hook';
  const extract =
    kind === 'tool' && env.extractSchema
      ? (sf: TS.SourceFile, e: TS.Expression) => env.extractSchema!(sf, e, file)
      : undefined;
  const input: Writable<ParseCodeInput> = { ts: env.ts, file, text, expected: HELPER[kind], modules: env.modules };
  if (extract) input.extractSchema = extract;
  const parsed = parseCode(input);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  if (kind !== 'hook') diagnostics.push(...checkNewPlaceholder(file, text));
  const allowedRoots = unit.kind === 'tool' || unit.kind === 'hook' ? enclosingRoots(unit) : [];
  diagnostics.push(...checkUpwardImports(file, unit.dir, allowedRoots, parsed.relativeImports));
  if (!parsed.helper || !parsed.fields) return { diagnostics, dependencies: [] };
  const what = `${unit.kind} "${unit.name}"`;
  if (kind === 'tool') {
    const { value, diagnostics: fieldDiagnostics } = validateToolFields(parsed.fields, what, env.customPermits, {
      requireExecute: true,
    });
    diagnostics.push(...fieldDiagnostics);
    const schemaDeps = schemaDependencies(parsed.schema);
    // The optional keys assigned, not spread (util/writable.ts): one per tool of a cold run.
    const data: Writable<ToolUnitData> = { kind: 'tool', ...value, loc: parsed.callLoc };
    if (parsed.schema !== undefined) data.schema = parsed.schema;
    if (parsed.schemaLoc) data.schemaLoc = parsed.schemaLoc;
    return { data, diagnostics, dependencies: schemaDeps };
  }
  if (kind === 'prompt-section') {
    const { value, diagnostics: fieldDiagnostics } = validatePromptSection(parsed.fields, what, { dirName: unit.name });
    diagnostics.push(...fieldDiagnostics);
    // Keys in the order every result has (data first): assigned, not spread (util/writable.ts).
    const section = {} as Writable<UnitResult>;
    if (value) section.data = { kind: 'prompt-section', loc: parsed.callLoc, ...value };
    section.diagnostics = diagnostics;
    section.dependencies = [];
    return section;
  }
  const { events, diagnostics: hookDiagnostics } = validateHook(parsed.fields, what);
  diagnostics.push(...hookDiagnostics);
  return { data: { kind: 'hook', loc: parsed.callLoc, events }, diagnostics, dependencies: [] };
}

/** Files a schema snippet read besides the entry (relative imports), as reported by the schema stage. */
function schemaDependencies(schema: unknown): string[] {
  if (
    typeof schema === 'object' &&
    schema !== null &&
    'files' in schema &&
    Array.isArray((schema as { files: unknown }).files)
  ) {
    return (schema as { files: unknown[] }).files.filter((f): f is string => typeof f === 'string');
  }
  return [];
}

/** A tool or hook may import from its enclosing skill root and agent root (shared handlers). */
function enclosingRoots(unit: CapabilityUnit): string[] {
  const roots: string[] = [];
  const base = unit.pluginDir === '' ? '' : `${unit.pluginDir}/`;
  if (unit.agent !== undefined) {
    roots.push(`${base}agents/${unit.agent}`);
    if (unit.skill !== undefined) roots.push(`${base}agents/${unit.agent}/skills/${unit.skill}`);
  } else if (unit.skill !== undefined) {
    roots.push(`${base}skills/${unit.skill}`);
  }
  return roots;
}

/** The keys the runtime does not use, as the manifest carries them (`allowed-tools` as one string). */
function passThroughOf(skill: ParsedSkill): { passThrough?: SkillUnitData['passThrough'] } {
  const { license, compatibility, metadata, allowedTools } = skill;
  const passThrough = {
    ...(license !== undefined ? { license } : {}),
    ...(compatibility !== undefined ? { compatibility } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(allowedTools !== undefined ? { allowedTools: allowedTools.join(' ') } : {}),
  };
  return Object.keys(passThrough).length > 0 ? { passThrough } : {};
}

function parseSkillUnit(unit: CapabilityUnit, env: ParseEnv): UnitResult {
  const file = unit.entry!;
  const text = env.readFile(file);
  if (text === undefined) return unreadable(file, env);
  const { skill, diagnostics } = checkSkillMd({ file, text, dirName: unit.name }, { customPermits: env.customPermits });
  diagnostics.push(...checkNewPlaceholder(file, text));
  if (!skill) return { diagnostics, dependencies: [] };
  return {
    data: {
      kind: 'skill',
      loc: skill.loc,
      description: skill.description,
      declaredTools: skill.declaredTools.map((t) => ({ name: t.name, loc: t.loc })),
      platforms: skill.platforms,
      platformLocs: skill.platformLocs,
      scopes: skill.scopes,
      permissions: skill.permissions,
      keywords: skill.keywords,
      tags: skill.tags,
      always: skill.always,
      instructions: skill.instructions,
      ...passThroughOf(skill),
    },
    diagnostics,
    dependencies: [],
  };
}

function parseAgentUnit(unit: CapabilityUnit, env: ParseEnv): UnitResult {
  const read = (name: string): string | undefined =>
    unit.files.includes(`${unit.dir}/${name}`) ? env.readFile(`${unit.dir}/${name}`) : undefined;
  const files = {
    'system.md': read('system.md'),
    'boundaries.md': read('boundaries.md'),
    'conventions.md': read('conventions.md'),
  };
  const rootAgentsMd = env.agentsMdOf(unit.pluginDir);
  const unreadableMarkdown = (Object.keys(files) as (keyof typeof files)[])
    .filter((name) => files[name] === undefined && unit.files.includes(`${unit.dir}/${name}`))
    .flatMap((name) => unreadable(`${unit.dir}/${name}`, env).diagnostics);
  const diagnostics: Diagnostic[] = [
    ...unreadableMarkdown,
    ...validateAgentDirectory({
      dir: unit.dir,
      entries: unit.entries,
      files,
      ...(rootAgentsMd ? { rootAgentsMd } : {}),
    }),
    ...(Object.keys(files) as (keyof typeof files)[]).flatMap((name) =>
      checkNewPlaceholder(`${unit.dir}/${name}`, files[name]),
    ),
  ];
  const dependencies = rootAgentsMd ? [rootAgentsMd.file] : [];
  if (!unit.entry) return { diagnostics, dependencies };
  const text = env.readFile(unit.entry);
  if (text === undefined) return { ...unreadable(unit.entry, env), dependencies };
  const parsed = parseAgentJson({ file: unit.entry, text, dirName: unit.name });
  diagnostics.push(...parsed.diagnostics, ...checkNewPlaceholder(unit.entry, text));
  if (!parsed.agent) return { diagnostics, dependencies };
  const agent = parsed.agent;
  return {
    data: {
      kind: 'agent',
      loc: agent.loc,
      description: agent.description,
      platforms: agent.platforms.map((p) => ({ name: p.name, loc: p.loc })),
      declaredTools: agent.declaredTools.map((t) => ({ name: t.name, loc: t.loc })),
      ...(agent.model !== undefined ? { model: agent.model } : {}),
      ...(agent.maxSteps !== undefined ? { maxSteps: agent.maxSteps } : {}),
      system: normalise(files['system.md']),
      boundaries: normalise(files['boundaries.md']),
      conventions: normalise(files['conventions.md']),
    },
    diagnostics,
    dependencies,
  };
}

export function normalise(text: string | undefined): string {
  return (text ?? '').replace(/\r\n?/g, '\n');
}

/** Parses a plugin entry (`plugin.ts`) for `context.addTool('<literal>', defineAgentTool(...))`. */
export function parsePluginEntry(file: string, env: ParseEnv): UnitResult {
  const text = env.readFile(file);
  if (text === undefined) return unreadable(file, env);
  const parsed = parseCode({ ts: env.ts, file, text, expected: 'definePlugin', modules: env.modules });
  // A plugin entry's own default export may come from zhin.js itself, so a missing or foreign
  // definePlugin is left to the host: the manifest does not import it (host.load() rejects any
  // other default export), and a warning says so. A recognised one gets definePlugin's checks.
  const foreign = parsed.diagnostics.find((d) => d.code === 'ZG2002' || d.code === 'ZG2003');
  // zhin-gen's definePlugin imported, its call out of sight (`export default make('p')`): still
  // imported, as host.load() takes any definePlugin value; only a foreign or absent one is not.
  const runsSetup = parsed.helper === 'definePlugin' || (parsed.importsHelper === true && foreign?.code !== 'ZG2003');
  const diagnostics = parsed.diagnostics.filter((d) => d.code !== 'ZG2002' && d.code !== 'ZG2003');
  if (runsSetup && parsed.fields) diagnostics.push(...validatePluginFields(parsed.fields));
  if (!runsSetup && !diagnostics.some((d) => d.severity === 'error'))
    diagnostics.push(
      diag('ZG2062', {
        ...(foreign ? { file: foreign.file, line: foreign.line, column: foreign.column } : { file }),
        message: `${file} does not default-export zhin-gen's definePlugin${foreign ? ` (${foreign.message.replace(/\.$/, '')})` : ''}: the manifest does not import it, and its setup() runs only in the zhin.js host`,
      }),
    );
  const conditionalTools: PluginEntryData['conditionalTools'][number][] = [];
  const conditionalSections: PluginEntryData['conditionalSections'][number][] = [];
  for (const ref of parsed.conditionalTools.filter((r) => r.kind === 'prompt-section')) {
    let platforms: { value: string; loc: SourceLocation }[] = [];
    if (ref.fields && ref.fields.t === 'object') {
      // setup() builds the section at runtime: computed title / content are fine there.
      const checked = validatePromptSection(ref.fields, `conditional prompt section "${ref.localName}"`, {
        literalText: false,
        dirName: ref.localName,
      });
      diagnostics.push(...checked.diagnostics.filter((d) => d.code !== 'ZG2011'));
      platforms = [...(checked.value?.platforms ?? [])];
    }
    conditionalSections.push({ localName: ref.localName, loc: ref.loc, platforms });
  }
  for (const ref of parsed.conditionalTools.filter((r) => r.kind === 'tool')) {
    let fields = {
      description: '',
      requiresApproval: DEFAULT_APPROVAL_MODE as ApprovalMode,
      platforms: [] as string[],
      scopes: [] as ChannelScope[],
      permissions: [] as string[],
      hidden: false,
    };
    if (ref.fields && ref.fields.t === 'object') {
      const checked = validateToolFields(ref.fields, `conditional tool "${ref.localName}"`, env.customPermits, {
        requireExecute: true,
      });
      // setup() registers the real definition object at runtime: nothing is taken from the manifest.
      diagnostics.push(...checked.diagnostics.filter((d) => d.code !== 'ZG2011' && d.code !== 'ZG2012'));
      fields = {
        ...checked.value,
        platforms: checked.value.platforms.map((p) => p.value),
        scopes: [...checked.value.scopes],
        permissions: [...checked.value.permissions],
      };
    }
    conditionalTools.push({ localName: ref.localName, loc: ref.loc, ...fields });
  }
  return {
    data: { kind: 'plugin-entry', runsSetup, conditionalTools, conditionalSections },
    diagnostics,
    dependencies: [],
  };
}

export function parseUnit(unit: CapabilityUnit, env: ParseEnv): UnitResult {
  try {
    if (unit.kind === 'agent') return parseAgentUnit(unit, env);
    if (!unit.entry) return { diagnostics: [], dependencies: [] };
    if (unit.kind === 'skill') return parseSkillUnit(unit, env);
    return parseCodeUnit(unit, env);
  } catch (error) {
    // A parser bug must not take the run down: report it at the unit and go on.
    return {
      diagnostics: [
        diag('ZG9001', {
          file: unit.entry ?? unit.dir,
          message: `Internal error while reading ${unit.entry ?? unit.dir}: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ],
      dependencies: [],
    };
  }
}
