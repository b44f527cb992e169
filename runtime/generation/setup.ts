/**
 * Path two (docs/runtime.md): each plugin's `setup(context)` writes into the candidate generation.
 *
 * Where definitions come from (decision): `options.plugins[owner]` when given (tests, hosts that
 * bundle plugins differently), otherwise the manifest plugin's lazy `entry` is imported here.
 * Plugin entries are few, so importing them at load is the setup path, unlike tool modules.
 * Parents run before children, so a child may `use()` what its ancestors provided.
 */
import type {
  AgentPromptSection,
  AgentToolDefinition,
  PluginDefinition,
  PluginSetupContext,
  ResourceToken,
} from '../contract/define.js';
import { bindDefinition, describeError, isAgentToolDefinition } from './capability.js';
import type { CandidateBuilder } from './generation.js';
import { isDefinitionOf } from '../contract/definition-shape.js';
import { isValidOwner, promptSectionId, segmentNameProblem, toolLocalNameProblem } from '../contract/names.js';

export type PluginDefinitions = Readonly<Record<string, PluginDefinition>>;

function isPluginDefinition(value: unknown): value is PluginDefinition {
  return isDefinitionOf(value, 'plugin', 'setup', 'function', true);
}

function ownerLabel(owner: string): string {
  return owner === '' ? 'root plugin' : `plugin "${owner}"`;
}

/** Depth first, then by code units: deterministic, parents before children. */
function compareOwners(a: string, b: string): number {
  const depth = (owner: string) => (owner === '' ? 0 : owner.split('/').length);
  const byDepth = depth(a) - depth(b);
  if (byDepth !== 0) return byDepth;
  return a < b ? -1 : a > b ? 1 : 0;
}

async function resolveDefinition(
  candidate: CandidateBuilder,
  owner: string,
  explicit: PluginDefinitions | undefined,
): Promise<PluginDefinition | undefined> {
  if (explicit && Object.hasOwn(explicit, owner)) {
    const definition = explicit[owner];
    if (!isPluginDefinition(definition))
      throw new Error(`${ownerLabel(owner)}: options.plugins entry is not a definePlugin(...) value`);
    return definition;
  }
  const plugin = candidate.manifest.plugins.find((entry) => entry.owner === owner);
  if (!plugin?.entry) return undefined;
  let module: { readonly default: unknown };
  try {
    module = await plugin.entry();
  } catch (error) {
    throw new Error(`${ownerLabel(owner)}: entry ${plugin.entrySource ?? ''} failed to load: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (!isPluginDefinition(module?.default)) {
    throw new Error(
      `${ownerLabel(owner)}: entry ${plugin.entrySource ?? ''} does not default-export definePlugin(...)`,
    );
  }
  return module.default;
}

export async function runPluginSetups(candidate: CandidateBuilder, explicit?: PluginDefinitions): Promise<void> {
  const owners = new Set(candidate.manifest.plugins.map((plugin) => plugin.owner));
  for (const owner of Object.keys(explicit ?? {})) owners.add(owner);
  for (const owner of [...owners].sort(compareOwners)) {
    if (!isValidOwner(owner)) throw new Error(`invalid plugin owner path "${owner}"`);
    const definition = await resolveDefinition(candidate, owner, explicit);
    if (!definition?.setup) continue;
    const { context, close } = createSetupContext(candidate, owner);
    try {
      await definition.setup(context);
    } catch (error) {
      throw new Error(`${ownerLabel(owner)} setup() failed: ${describeError(error)}`, { cause: error });
    } finally {
      close();
    }
  }
}

function createSetupContext(
  candidate: CandidateBuilder,
  owner: string,
): { context: PluginSetupContext; close(): void } {
  let open = true;
  const label = ownerLabel(owner);
  // A late call (a timer that outlives setup) must not mutate a candidate that may be sealed.
  const ensureOpen = (what: string) => {
    if (!open) throw new Error(`${label}: ${what} called after setup() returned`);
  };
  const config = Object.freeze({ ...candidate.config.plugins?.[owner] });
  const context: PluginSetupContext = Object.freeze({
    owner,
    config: Object.freeze({ get: () => config }),
    addTool(localName: string, tool: AgentToolDefinition<unknown>): void {
      ensureOpen('addTool()');
      // The compiler applies these same predicates to literal names (ZG3005, ZG3011).
      const problem = typeof localName === 'string' ? toolLocalNameProblem(localName) : { message: 'is not a string' };
      if (problem) throw new TypeError(`${label}: addTool() name "${String(localName)}" ${problem.message}`);
      if (!isAgentToolDefinition(tool))
        throw new TypeError(`${label}: addTool("${localName}") expects defineAgentTool(...)`);
      candidate.addTool(bindDefinition(owner, localName, tool, 'setup'));
    },
    addPromptSection(localName: string, section: AgentPromptSection): void {
      ensureOpen('addPromptSection()');
      const problem = typeof localName === 'string' ? segmentNameProblem(localName) : { message: 'is not a string' };
      if (problem) throw new TypeError(`${label}: addPromptSection() name "${String(localName)}" ${problem.message}`);
      if (typeof section !== 'object' || section === null || section.kind !== 'prompt-section') {
        throw new TypeError(`${label}: addPromptSection("${localName}") expects defineAgentPromptSection(...)`);
      }
      candidate.addPromptSection({
        id: promptSectionId({ owner, name: localName }),
        owner,
        name: localName,
        source: 'setup',
        section,
      });
    },
    resources: Object.freeze({
      provide<T>(token: ResourceToken<T>, value: T, dispose?: () => void | Promise<void>): void {
        ensureOpen('resources.provide()');
        candidate.resources.provide(owner, token, value, dispose);
      },
      use<T>(token: ResourceToken<T>): T {
        return candidate.resources.use(owner, token);
      },
    }),
  });
  return { context, close: () => (open = false) };
}
