/**
 * The report's data: the compiler's model (what `inspect` prints) and the runtime's facts (what
 * `catalog` and `host.catalog()` answer) joined into one JSON document the page renders. Pure:
 * everything it reads is passed in, so the same inputs give the same bytes.
 */
import { basename } from 'node:path';
import { type JsonSchema, PROMPT_LAYERS } from '@zhin-gen/runtime';
import { compareStrings, type Diagnostic } from '../../diagnostics.js';
import { hookId, promptSectionId } from '@zhin-gen/runtime/names';
import { disclosureOf } from '../../cli/inspect.js';
import type { CapabilityModel } from '../../model.js';
import { codeFrame } from '../code-frame.js';
import type { Principal, RuntimeFacts, TurnStartCost } from './collect.js';
import type { Restrictions } from './access.js';
import type { StageSet } from './stages.js';
import type { ProviderSizes, Size } from './tokens.js';

export interface DiagnosticRow {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly hint: string | null;
  /** The source around the location (the CLI's code frame, one line of context). */
  readonly frame: string;
}

export interface ToolRow {
  readonly name: string;
  readonly localName: string;
  readonly owner: string;
  readonly placement: string;
  readonly agent: string | null;
  readonly skill: string | null;
  readonly source: string;
  readonly description: string;
  readonly approval: string;
  readonly platforms: readonly string[];
  readonly scopes: readonly string[];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
  readonly conditional: boolean;
  /** `inspect`'s disclosure sentence. */
  readonly disclosure: string;
  readonly schemaVia: string;
  readonly schema: JsonSchema;
  /** The input schema as sent, and the whole request object per provider (null: not in the manifest). */
  readonly schemaSize: Size | null;
  readonly sizes: ProviderSizes | null;
  /** Row of `access.cells` (-1: no decision, e.g. a setup() tool). */
  readonly access: number;
  readonly diagnostics: readonly number[];
}

export interface Capability {
  readonly kind: 'skill' | 'agent' | 'section' | 'hook';
  readonly name: string;
  /** Directory name inside the owner, and the enclosing agent's (for nesting the tree). */
  readonly localName: string;
  readonly agent: string | null;
  readonly skill: string | null;
  readonly owner: string;
  readonly title: string;
  readonly source: string;
  readonly detail: string;
  readonly diagnostics: readonly number[];
}

export interface SectionBudget {
  readonly id: string;
  readonly title: string;
  readonly owner: string;
  readonly layer: string;
  readonly order: number;
  readonly retention: string;
  readonly maxChars: number | null;
  /** null: the module computes the content, which only `host.load` reads (the report imports no module). */
  readonly contentChars: number | null;
  readonly profiles: readonly string[];
  readonly platforms: readonly string[];
  readonly source: string;
}

export interface ReportData {
  readonly version: 1;
  readonly title: string;
  readonly errors: number;
  readonly warnings: number;
  /** Why the runtime parts are missing (the tree has errors, or the runtime refused it). */
  readonly runtimeError: string | null;
  readonly plugins: readonly { owner: string; dir: string; agentsMd: string | null; entry: string | null }[];
  readonly tools: readonly ToolRow[];
  readonly capabilities: readonly Capability[];
  readonly diagnostics: readonly DiagnosticRow[];
  readonly principals: readonly Principal[];
  readonly access: {
    readonly signatures: readonly Restrictions[];
    readonly cells: readonly (readonly (string | null)[])[];
  };
  readonly cost: { readonly allTools: ProviderSizes | null; readonly turnStart: readonly TurnStartCost[] };
  readonly stages: readonly StageSet[];
  readonly prompt: {
    /** Assembly order of the layers (the runtime's). */
    readonly layers: readonly string[];
    readonly systemPromptMaxChars: number | null;
    readonly sections: readonly SectionBudget[];
    readonly required: readonly { readonly label: string; readonly owner: string; readonly chars: number }[];
  };
}

export interface ReportInput {
  readonly root: string;
  readonly model: CapabilityModel;
  readonly diagnostics: readonly Diagnostic[];
  readonly principals: readonly Principal[];
  readonly facts: RuntimeFacts | { readonly error: string };
  /** The text of a root-relative file (for code frames), `undefined` when unreadable. */
  readonly readSource: (file: string) => string | undefined;
}

const dirOf = (source: string): string => source.slice(0, Math.max(0, source.lastIndexOf('/')));

/** Attaches each diagnostic to the capability whose file it names, else whose folder holds it. */
function attach(diagnostics: readonly Diagnostic[], owners: readonly { files: readonly string[]; dir: string }[]) {
  const lists = owners.map((): number[] => []);
  diagnostics.forEach((d, index) => {
    let best = owners.findIndex((o) => o.files.includes(d.file));
    if (best < 0) {
      let depth = -1;
      owners.forEach((o, i) => {
        if (o.dir !== '' && d.file.startsWith(`${o.dir}/`) && o.dir.length > depth) [best, depth] = [i, o.dir.length];
      });
    }
    if (best >= 0) lists[best]!.push(index);
  });
  return lists;
}

export function reportData(input: ReportInput): ReportData {
  const { model } = input;
  const facts = 'error' in input.facts ? undefined : input.facts;
  const diagnostics: DiagnosticRow[] = input.diagnostics.map((d) => {
    const source = input.readSource(d.file);
    return {
      code: d.code,
      severity: d.severity,
      message: d.message,
      file: d.file,
      line: d.line,
      column: d.column,
      hint: d.hint ?? null,
      frame: source === undefined ? '' : codeFrame(source, d.line, d.column, { context: 1 }),
    };
  });
  const tools = [...model.tools].sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
  const skills = [...model.skills].sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
  const agents = [...model.agents].sort((a, b) => compareStrings(a.qualifiedName, b.qualifiedName));
  // Assembly order (docs/prompt.md): layer, then `order` descending, then id.
  const rank = (layer: string) => PROMPT_LAYERS.indexOf(layer as (typeof PROMPT_LAYERS)[number]);
  const sections = [...model.promptSections].sort(
    (a, b) =>
      rank(a.layer) - rank(b.layer) || b.order - a.order || compareStrings(promptSectionId(a), promptSectionId(b)),
  );
  const hooks = [...model.hooks].sort((a, b) => compareStrings(hookId(a), hookId(b)));
  const attached = attach(input.diagnostics, [
    ...tools.map((t) => ({ files: [t.source, ...t.related], dir: dirOf(t.source) })),
    ...skills.map((s) => ({ files: [s.source], dir: dirOf(s.source) })),
    ...agents.map((a) => ({ files: [a.source], dir: dirOf(a.source) })),
    ...sections.map((p) => ({ files: [p.source], dir: dirOf(p.source) })),
    ...hooks.map((h) => ({ files: [h.source], dir: dirOf(h.source) })),
  ]);
  let next = 0;
  const take = (): number[] => attached[next++]!;

  const toolRows: ToolRow[] = tools.map((t) => {
    const size = facts?.toolSizes.get(t.qualifiedName);
    return {
      name: t.qualifiedName,
      localName: t.localName,
      owner: t.owner,
      placement: t.placement,
      agent: t.agent ?? null,
      skill: t.skill ?? null,
      source: t.source,
      description: t.description,
      approval: t.requiresApproval,
      platforms: t.platforms,
      scopes: t.scopes,
      permissions: t.permissions,
      hidden: t.hidden,
      conditional: t.conditional,
      disclosure: disclosureOf(t),
      schemaVia: t.schemaVia,
      schema: t.inputSchema,
      schemaSize: size?.schema ?? null,
      sizes: size?.providers ?? null,
      access: facts?.access.toolSignature.get(t.qualifiedName) ?? -1,
      diagnostics: take(),
    };
  });
  const capabilities: Capability[] = [
    ...skills.map((s) => ({
      kind: 'skill' as const,
      name: s.qualifiedName,
      localName: s.name,
      agent: s.agent ?? null,
      skill: null,
      owner: s.owner,
      title: s.description,
      source: s.source,
      detail: `${s.agent ? `private to agent ${s.agent}; ` : ''}tools: ${s.tools.join(', ') || 'none'}`,
      diagnostics: take(),
    })),
    ...agents.map((a) => ({
      kind: 'agent' as const,
      name: a.qualifiedName,
      localName: a.name,
      agent: null,
      skill: null,
      owner: a.owner,
      title: a.description,
      source: a.source,
      detail:
        a.platforms.length > 0
          ? `platform agent: ${a.platforms.map((p) => p.name).join(', ')}`
          : 'selected explicitly (beginTurn({ agent }))',
      diagnostics: take(),
    })),
    ...sections.map((p) => ({
      kind: 'section' as const,
      name: promptSectionId(p),
      localName: p.name,
      agent: null,
      skill: null,
      owner: p.owner,
      title: p.title,
      source: p.source,
      detail: `${p.layer}, order ${p.order}, ${p.retention}${p.maxChars === undefined ? '' : `, at most ${p.maxChars} characters`}`,
      diagnostics: take(),
    })),
    ...hooks.map((h) => ({
      kind: 'hook' as const,
      name: hookId(h),
      localName: h.name,
      agent: h.agent ?? null,
      skill: h.skill ?? null,
      owner: h.owner,
      title: h.events.join(', '),
      source: h.source,
      detail: `${h.placement}${h.agent ? ` of agent ${h.agent}` : ''}${h.skill ? ` of skill ${h.skill}` : ''}`,
      diagnostics: take(),
    })),
  ];
  const catalog = facts?.catalog;
  const sectionFacts = new Map(catalog?.promptSections.map((s) => [s.id, s]) ?? []);
  return {
    version: 1,
    title: basename(input.root),
    errors: input.diagnostics.filter((d) => d.severity === 'error').length,
    warnings: input.diagnostics.filter((d) => d.severity === 'warning').length,
    runtimeError: 'error' in input.facts ? input.facts.error : null,
    plugins: [...model.plugins]
      .sort((a, b) => compareStrings(a.owner, b.owner))
      .map((p) => ({ owner: p.owner, dir: p.dir, agentsMd: p.agentsMd?.source ?? null, entry: p.entrySource ?? null })),
    tools: toolRows,
    capabilities,
    diagnostics,
    principals: input.principals,
    access: { signatures: facts?.access.signatures ?? [], cells: facts?.access.cells ?? [] },
    cost: { allTools: facts?.allTools ?? null, turnStart: facts?.turnStart ?? [] },
    stages: facts?.stages ?? [],
    prompt: {
      layers: PROMPT_LAYERS,
      systemPromptMaxChars: catalog?.systemPromptMaxChars ?? null,
      // Content lengths come from the runtime's catalog, which never returns the text itself.
      sections: sections.map((p) => {
        const id = promptSectionId(p);
        return {
          id,
          title: p.title,
          owner: p.owner,
          layer: p.layer,
          order: p.order,
          retention: p.retention,
          maxChars: p.maxChars ?? null,
          contentChars: p.content === undefined ? null : (sectionFacts.get(id)?.contentChars ?? 0),
          profiles: p.profiles,
          platforms: p.platforms,
          source: p.source,
        };
      }),
      required: [
        ...(catalog?.plugins ?? [])
          .filter((p) => p.agentsMdChars !== undefined)
          .map((p) => ({
            label: `AGENTS.md${p.owner ? ` of ${p.owner}` : ''}`,
            owner: p.owner,
            chars: p.agentsMdChars!,
          })),
        ...(catalog?.agents ?? []).map((a) => ({
          label: `agent ${a.qualifiedName} (system, boundaries, conventions)`,
          owner: a.owner,
          chars: a.promptChars.system + a.promptChars.boundaries + a.promptChars.conventions,
        })),
      ],
    },
  };
}
