/**
 * `createCapabilityHost` (docs/runtime.md): loads manifests into atomic generations and starts turns.
 *
 * Loading prepares a candidate (runtime tools → manifest tools and prompt sections → plugin
 * `setup()` → `preparers`, the extension point seams and other later sources use), validates
 * it, and commits it in one assignment. Loads are serialised; turns never wait for a load, they
 * lease whatever is committed. Only the manifest is read here: no tool module is imported.
 */
import type { ApprovalMemory, ApprovalPort, RiskPolicy } from '../turn/approval.js';
import { checkManifest } from './manifest-check.js';
import { createApprovalMemory } from '../turn/approval.js';
import { createAskUserBinding } from '../turn/ask-user.js';
import { bindManifestTool, describeError } from './capability.js';
import { loadPromptSections } from '../prompt/section-content.js';
import { CandidateBuilder, CandidateRejectedError, type Generation, type HostConfig } from './generation.js';
import type { JournalSink } from '../turn/journal.js';
import type { CapabilityManifest, CapabilityRegistry, ManifestPackage } from '../contract/manifest.js';
import { NAME_SEPARATOR, qualify } from '../contract/names.js';
import type { PermissionHost } from '../access/permissions.js';
import { type CapabilityCatalog, catalogOf } from '../console/catalog.js';
import { checkPromptGeneration } from '../prompt/system-prompt.js';
import { projectCapabilitySeam } from '../seam/projection.js';
import { type PluginDefinitions, runPluginSetups } from './setup.js';
import { flattenPackages } from './packages.js';
import { type Turn, type TurnInput, createTurn } from '../turn/turn.js';
import { generationCatalog } from '../deferred/catalog.js';
import { createMemorySessionStore, type DeferredToolSessionStore } from '../deferred/session-store.js';
import type { JsonSchemaValidator } from '../validators/types.js';

/** Extension point: contributes to every candidate after plugin setup (e.g. seam projection). */
export interface CandidatePreparer {
  readonly name: string;
  prepare(candidate: CandidateBuilder): void | Promise<void>;
}

export interface CapabilityHostOptions {
  readonly permissions?: PermissionHost;
  /** Default approval port for turns that do not bring their own. */
  readonly approval?: ApprovalPort;
  readonly journal?: JournalSink;
  readonly config?: HostConfig;
  /** Dedicated policies that may verify a concrete `on-risk` call (see approval.ts). */
  readonly riskPolicies?: readonly RiskPolicy[];
  /** Where `once` approvals are remembered (in memory by default). */
  readonly approvalMemory?: ApprovalMemory;
  readonly preparers?: readonly CandidatePreparer[];
  /** Per-session loaded tools and skills of the deferred catalog (in memory by default; docs/catalog.md). */
  readonly sessions?: DeferredToolSessionStore;
  /** Wall clock for `lastTouchedMs` (tests inject one). Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * Compiles the JSON Schemas the compiler never saw: seam tools, `context.addTool()` with a JSON
   * Schema, hand-made manifests. Not needed for compiled tools (their validators are generated
   * at build time) and absent by default, because it evaluates code; `host.load` rejects a
   * generation that needs it (docs/runtime.md "Validation"). `ajvValidator()` from
   * `@zhin-gen/runtime/ajv` is one.
   */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
  /** Non-fatal problems: disposer failures, journal sink failures, `tool:after` hook failures. */
  readonly onError?: (error: Error) => void;
}

export interface LoadOptions {
  /** Plugin definitions by owner path; override or supply what manifest entries would import. */
  readonly plugins?: PluginDefinitions;
  /** Replaces the host config for this and later generations. */
  readonly config?: HostConfig;
}

export interface LoadSummary {
  readonly generation: number;
  readonly tools: number;
  /** The generation this commit retired, if any. */
  readonly retired?: number;
}

export interface CapabilityHost<R = CapabilityRegistry> {
  /** Number of the committed generation; 0 before the first successful load. */
  readonly generation: number;
  /** The committed generation (read-only), for catalogs and later extensions. */
  readonly current: Generation | undefined;
  load(manifest: CapabilityManifest, options?: LoadOptions): Promise<LoadSummary>;
  beginTurn(input: TurnInput): Promise<Turn<R>>;
  /** Console catalog of the committed generation; never any prompt text (docs/prompt.md). */
  catalog(): CapabilityCatalog;
  /** Retires the current generation; disposers run when its last turn ends. */
  close(): Promise<void>;
}

function makeIdSource(): (prefix: string) => string {
  let counter = 0;
  // Ids only need to be distinct per host instance, not unguessable: Math.random avoids paying the
  // WebCrypto initialisation (~7 ms in Node) on every start-up.
  const random = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  const instance = random();
  return (prefix) => `${prefix}_${instance}_${(++counter).toString(36)}`;
}

/** Cross-references the compiler also checks; a hand-made or stale manifest must not slip by. */
function checkReferences(candidate: CandidateBuilder, packages: readonly ManifestPackage[]): void {
  const { manifest } = candidate;
  // All missing host-provided names at once: the operator fixes the host in one go, not one per load.
  const missing = (manifest.hostProvided?.tools ?? []).filter((name) => !candidate.hasTool(name));
  if (missing.length > 0) {
    const users = (name: string): string =>
      [
        ...manifest.skills.filter((s) => s.tools.includes(name)).map((s) => `skill "${s.qualifiedName}"`),
        ...manifest.agents.filter((a) => a.tools.includes(name)).map((a) => `agent "${a.qualifiedName}"`),
      ].join(', ');
    // A name under an installed package's owner: the package (another version than the bot was
    // built against) no longer provides it; setup() or a seam would be the wrong fix.
    const fromPackage = (name: string) => packages.find((p) => name.startsWith(`${qualify(p.owner)}${NAME_SEPARATOR}`));
    const shown = missing.map((n) => {
      const pkg = fromPackage(n);
      const provider = pkg ? `; package "${pkg.name}" of plugin "${pkg.owner}" does not provide it` : '';
      return `"${n}" (${users(n) || 'declared'}${provider})`;
    });
    const advice = missing.some((n) => fromPackage(n))
      ? 'the installed packages differ from the ones the bot was generated against: generate again (and rebuild) with them, or install the versions it was built with; provide the others (setup(), a seam provider, a preparer) or remove the references'
      : 'provide them (setup(), a seam provider, a preparer) or remove the references';
    throw new Error(`host-provided tools missing from the generation: ${shown.join(', ')}; ${advice}`);
  }
  for (const agent of manifest.agents) {
    for (const name of agent.tools) {
      if (!candidate.hasTool(name)) throw new Error(`agent "${agent.qualifiedName}" lists unknown tool "${name}"`);
    }
  }
  for (const skill of manifest.skills) {
    for (const name of skill.tools) {
      if (!candidate.hasTool(name)) throw new Error(`skill "${skill.qualifiedName}" lists unknown tool "${name}"`);
    }
  }
  const hookIds = new Set<string>();
  for (const hook of manifest.hooks) {
    if (hookIds.has(hook.id)) throw new Error(`duplicate hook "${hook.id}"`);
    hookIds.add(hook.id);
  }
}

export function createCapabilityHost<R = CapabilityRegistry>(options: CapabilityHostOptions = {}): CapabilityHost<R> {
  const onError = options.onError ?? (() => {});
  const approvalMemory = options.approvalMemory ?? createApprovalMemory();
  const riskPolicies = Object.freeze([...(options.riskPolicies ?? [])]);
  const nextId = makeIdSource();
  const sessions = options.sessions ?? createMemorySessionStore();
  const generationOptions = options.jsonSchemaValidator ? { jsonSchemaValidator: options.jsonSchemaValidator } : {};
  let config: HostConfig = options.config ?? {};
  let current: Generation | undefined;
  let lastId = 0;
  let queue: Promise<unknown> = Promise.resolve();

  async function prepare(shipped: CapabilityManifest, load: LoadOptions): Promise<Generation> {
    const id = lastId + 1;
    let manifest: CapabilityManifest;
    try {
      checkManifest(shipped);
      // Installed packages' own manifests join as child plugins (generation/packages.ts); theirs
      // are checked as the bot's (a package built by another zhin-gen is the usual skew).
      manifest = flattenPackages(shipped);
      if (manifest !== shipped) checkManifest(manifest);
    } catch (error) {
      // Nothing was built yet: rejected like every other candidate, the previous generation serving on.
      throw new CandidateRejectedError(id, describeError(error), { cause: error, serving: current !== undefined });
    }
    const candidate = new CandidateBuilder(id, manifest, load.config ?? config, generationOptions);
    try {
      candidate.addTool(createAskUserBinding(), { reserved: true });
      for (const tool of manifest.tools) candidate.addTool(bindManifestTool(tool));
      for (const section of await loadPromptSections(manifest.promptSections)) {
        candidate.addPromptSection({
          id: section.id,
          owner: section.owner,
          name: section.name,
          source: 'feature',
          section,
        });
      }
      await runPluginSetups(candidate, load.plugins);
      // The root's capabilitySeamToken, projected into the same tables (runtime/seam/).
      await projectCapabilitySeam(candidate, { owners: Object.keys(load.plugins ?? {}), onError });
      for (const preparer of options.preparers ?? []) {
        try {
          await preparer.prepare(candidate);
        } catch (error) {
          throw new Error(`preparer "${preparer.name}" failed: ${describeError(error)}`, { cause: error });
        }
      }
      checkReferences(candidate, shipped.packages ?? []);
      const sealed = candidate.seal();
      checkPromptGeneration(sealed);
      // The deferred catalog and its search index: built (and `deferredTools` validated) once per generation.
      generationCatalog(sealed);
      return sealed;
    } catch (error) {
      // Nothing of the candidate was visible; only what it provided needs undoing.
      candidate.resources.seal();
      await candidate.resources.dispose(onError);
      throw new CandidateRejectedError(id, describeError(error), { cause: error, serving: current !== undefined });
    }
  }

  async function commit(manifest: CapabilityManifest, load: LoadOptions): Promise<LoadSummary> {
    const next = await prepare(manifest, load);
    const previous = current;
    current = next;
    lastId = next.id;
    if (load.config) config = load.config;
    if (previous) await previous.retire(onError);
    return { generation: next.id, tools: next.tools.size, ...(previous ? { retired: previous.id } : {}) };
  }

  const host: CapabilityHost<R> = {
    get generation() {
      return current?.id ?? 0;
    },
    get current() {
      return current;
    },
    load(manifest, loadOptions = {}) {
      const run = queue.then(() => commit(manifest, loadOptions));
      queue = run.catch(() => undefined);
      return run;
    },
    async beginTurn(input) {
      if (!current) throw new Error('no capability generation is loaded; await host.load(manifest) first');
      // Lease synchronously, before any await, so a concurrent commit cannot dispose it first.
      const lease = current.acquire();
      try {
        return await createTurn<R>(input, {
          lease,
          ...(options.permissions ? { permissions: options.permissions } : {}),
          ...(options.approval ? { approval: options.approval } : {}),
          ...(options.journal ? { journal: options.journal } : {}),
          approvalMemory,
          riskPolicies,
          sessions,
          ...(options.clock ? { clock: options.clock } : {}),
          onError,
          nextId,
        });
      } catch (error) {
        await lease.release();
        throw error;
      }
    },
    catalog() {
      return catalogOf(current);
    },
    async close() {
      await queue;
      const previous = current;
      current = undefined;
      if (previous) await previous.retire(onError);
    },
  };
  return Object.freeze(host);
}
