/**
 * What `host.load` checks of a manifest before it builds anything from it: the format version,
 * and in every entry the fields whose values the contract enumerates (runtime/contract/enums.ts,
 * the lists the compiler checks against) and the ones the runtime calls or iterates. A manifest
 * from a newer compiler (a scope, layer or profile this runtime does not know), a hand-made one
 * with a typo, or one cut short would otherwise load and then fail quietly: a tool that never
 * lists, a section that never renders, a call that throws "load is not a function". Rejected
 * whole instead (the caller wraps it as CandidateRejectedError), naming the entry and the field.
 */
import {
  APPROVAL_MODES,
  CHANNEL_SCOPES,
  HOOK_EVENTS,
  PROMPT_LAYERS,
  PROMPT_PROFILES,
  PROMPT_RETENTIONS,
} from '../contract/enums.js';
import type { CapabilityManifest } from '../contract/manifest.js';

/** The manifest format this runtime reads (the compiler writes `version: 1`). */
export const MANIFEST_VERSION = 1;

const SKEW =
  'the manifest and @zhin-gen/runtime come from different zhin-gen versions: install the @zhin-gen/runtime of the zhin-gen that generated it, or generate again with the zhin-gen of this runtime';

/** Sets, built once: a 20,000-tool manifest checks each field with one lookup. */
const ONE_OF = {
  requiresApproval: new Set<string>(APPROVAL_MODES),
  layer: new Set<string>(PROMPT_LAYERS),
  retention: new Set<string>(PROMPT_RETENTIONS),
} as const;
const EACH_OF = {
  scopes: new Set<string>(CHANNEL_SCOPES),
  events: new Set<string>(HOOK_EVENTS),
  profiles: new Set<string>(PROMPT_PROFILES),
} as const;

type Entry = Readonly<Record<string, unknown>>;

function stringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

/** What {@link toolProblem} checks, without building a message: true when the tool passes. */
function plainTool(tool: unknown): boolean {
  if (typeof tool !== 'object' || tool === null) return false;
  const t = tool as Partial<Record<string, unknown>>;
  const schema = t.inputSchema;
  if (!ONE_OF.requiresApproval.has(t.requiresApproval as string) || typeof t.load !== 'function') return false;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || !Array.isArray(t.scopes)) return false;
  for (const scope of t.scopes) if (!EACH_OF.scopes.has(scope as string)) return false;
  return stringList(t.platforms) && stringList(t.permissions) && stringList(t.keywords);
}

const toolProblem = (tool: Entry): string | undefined =>
  problemOf(tool, {
    // Not `placement`: a tool of a placement this runtime does not know is never disclosed, and
    // the turn's access decision names it (reason `unknown-placement`), so it is not silent.
    oneOf: ['requiresApproval'],
    eachOf: ['scopes'],
    lists: ['platforms', 'permissions', 'keywords'],
    functions: ['load'],
    objects: ['inputSchema'],
  });

function problemOf(
  entry: Entry,
  fields: {
    readonly oneOf?: readonly (keyof typeof ONE_OF)[];
    readonly eachOf?: readonly (keyof typeof EACH_OF)[];
    readonly lists?: readonly string[];
    readonly functions?: readonly string[];
    readonly objects?: readonly string[];
  },
): string | undefined {
  for (const field of fields.oneOf ?? []) {
    const value = entry[field];
    if (typeof value !== 'string' || !ONE_OF[field].has(value))
      return `${field} ${JSON.stringify(value)} is not one of ${[...ONE_OF[field]].join(', ')}`;
  }
  for (const field of fields.eachOf ?? []) {
    const value = entry[field];
    if (!Array.isArray(value)) return `${field} is not a list`;
    for (const item of value)
      if (typeof item !== 'string' || !EACH_OF[field].has(item))
        return `${field} has ${JSON.stringify(item)}, not one of ${[...EACH_OF[field]].join(', ')}`;
  }
  for (const field of fields.lists ?? []) {
    const value = entry[field];
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
      return `${field} is not a list of strings`;
  }
  for (const field of fields.functions ?? [])
    if (typeof entry[field] !== 'function') return `${field} is not a function`;
  for (const field of fields.objects ?? []) {
    const value = entry[field];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${field} is not an object`;
  }
  return undefined;
}

function checkEntries(
  entries: readonly unknown[],
  kind: string,
  nameOf: (entry: Entry) => unknown,
  check: (entry: Entry) => string | undefined,
): void {
  for (const entry of entries) {
    const problem =
      typeof entry === 'object' && entry !== null
        ? check(entry as Entry)
        : `is ${entry === null ? 'null' : typeof entry}`;
    if (problem !== undefined) {
      const name = typeof entry === 'object' && entry !== null ? nameOf(entry as Entry) : undefined;
      throw new TypeError(
        `manifest ${kind} ${JSON.stringify(name ?? '?')}: ${problem} (${SKEW}, or fix a hand-made manifest)`,
      );
    }
  }
}

export function checkManifest(manifest: CapabilityManifest): void {
  if (typeof manifest !== 'object' || manifest === null)
    throw new TypeError('host.load() expects a capability manifest');
  if (manifest.version !== MANIFEST_VERSION)
    throw new TypeError(
      `unsupported manifest version ${JSON.stringify(manifest.version)}: this @zhin-gen/runtime reads version ${MANIFEST_VERSION}; ${SKEW}`,
    );
  for (const key of ['plugins', 'tools', 'skills', 'agents', 'promptSections', 'hooks'] as const) {
    if (!Array.isArray(manifest[key])) throw new TypeError(`manifest.${key} must be an array`);
  }
  // Tools are the many (20,000 in a large bot): one plain pass, the generic check only for an
  // entry that fails it (which then names the field).
  for (const tool of manifest.tools as readonly unknown[])
    if (!plainTool(tool)) checkEntries([tool], 'tool', (t) => t.qualifiedName, toolProblem);
  checkEntries(
    manifest.skills,
    'skill',
    (s) => s.qualifiedName,
    (s) => problemOf(s, { eachOf: ['scopes'], lists: ['tools', 'platforms', 'permissions', 'keywords'] }),
  );
  checkEntries(
    manifest.agents,
    'agent',
    (a) => a.qualifiedName,
    (a) => problemOf(a, { lists: ['tools', 'platforms'] }),
  );
  checkEntries(
    manifest.promptSections,
    'prompt section',
    (p) => p.id,
    (p) => problemOf(p, { oneOf: ['layer', 'retention'], eachOf: ['profiles'], lists: ['platforms'] }),
  );
  checkEntries(
    manifest.hooks,
    'hook',
    (h) => h.id,
    (h) => problemOf(h, { eachOf: ['events'], functions: ['load'] }),
  );
}
