/**
 * `zhin-gen catalog` (docs/cli.md): exactly what the model would see in one turn, with the
 * reason every other tool is left out. It runs the SAME runtime code a host runs — a real
 * `createCapabilityHost`, `host.load`, `beginTurn`, `load_skill`, `modelTools` — over the manifest
 * the compiler just generated in memory.
 *
 * Decision: the manifest is the generated module text itself (`result.code`), transpiled with
 * esbuild and imported from a data: URL, so the catalog can never disagree with what `generate`
 * writes (no second model → manifest mapping). Tool and hook loaders are replaced by loaders that
 * reject (a catalog never executes anything), and plugin entries are dropped: `setup()` is not
 * run, so its tools are reported as `conditional`. Permission checks use a bare PermissionHost:
 * builtin permits (`role`, `user`, `group`, …) are decided from the flags, `platform(…)` and
 * custom permits fail (no checkers) and say so. The turn is attended with a question port, like
 * an interactive IM turn, so `ask_user` is listed.
 */
import { transform } from 'esbuild';
import {
  AgentUnavailableError,
  CHANNEL_SCOPES,
  CatalogNotFoundError,
  MODEL_PROVIDERS,
  PermissionHost,
  createCapabilityHost,
  createMemorySessionStore,
  type CapabilityManifest,
  type ImMessage,
  type ModelProvider,
  type Omission,
  type TurnListing,
} from '@zhin-gen/runtime';
import type { Compiler } from '../context.js';
import type { Diagnostic } from '../diagnostics.js';
import { formatPretty, palette, printable, toJsonDiagnostics } from '../report/index.js';

export interface CatalogArgs {
  readonly platform?: string;
  readonly scope?: string;
  readonly user?: string;
  readonly role?: readonly string[];
  readonly agent?: string;
  readonly skill?: readonly string[];
  readonly provider?: string;
  readonly json?: boolean;
}

const NO_SKILL = 'no skill of this name in the manifest';

interface CatalogIo {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
  readonly errTTY?: boolean;
}

/** The `--json` document (documented in docs/cli.md). */
export interface CatalogJson {
  readonly turn: {
    readonly platform: string;
    readonly scope: string;
    readonly user: string;
    readonly roles: readonly string[];
    readonly agent: string | null;
    readonly agentSelection: 'explicit' | 'platform' | 'none';
    readonly provider: ModelProvider;
    readonly generation: number;
  };
  readonly tools: readonly {
    name: string;
    state: 'loaded' | 'deferred';
    sent: boolean;
    reason: string | null;
    description: string;
  }[];
  readonly skills: readonly { name: string; description: string; loaded: boolean }[];
  readonly agents: readonly { name: string; description: string; selected: boolean; platforms: readonly string[] }[];
  readonly omitted: readonly { name: string; kind: 'tool' | 'skill'; code: string; detail: string }[];
  readonly conditional: readonly { name: string; source: string; detail: string }[];
  readonly requestedSkills: readonly { name: string; status: 'loaded' | 'unavailable'; detail: string | null }[];
}

/** `a, b or c`: the accepted values of a flag, from the contract's enumeration. */
const oneOf = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
const refuse = (what: string) => () => Promise.reject(new Error(`zhin-gen catalog does not import ${what}`));

/**
 * The generated module, evaluated in memory; loaders replaced, plugin entries dropped. A prompt
 * section whose module computes its content (the manifest holds its loader, which `host.load`
 * would run) is given an empty content: what the catalog and the report show of a section is its
 * metadata, never its text, and neither imports the tree's modules.
 */
export async function manifestFromCode(code: string): Promise<CapabilityManifest> {
  const { code: js } = await transform(code, { loader: 'ts', format: 'esm', target: 'node20' });
  const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as {
    manifest: CapabilityManifest;
  };
  const manifest = module.manifest;
  return {
    ...manifest,
    plugins: manifest.plugins.map(({ entry: _entry, entrySource: _source, ...plugin }) => plugin),
    tools: manifest.tools.map((tool) => ({ ...tool, load: refuse(`tool module ${tool.source}`) })),
    hooks: manifest.hooks.map((hook) => ({ ...hook, load: refuse(`hook module ${hook.source}`) })),
    promptSections: manifest.promptSections.map(({ load: _load, ...section }) => ({
      ...section,
      content: section.content ?? '',
    })),
  };
}

export async function runCatalog(compiler: Compiler, values: CatalogArgs, io: CatalogIo): Promise<number> {
  const { platform, scope } = values;
  if (!platform || !scope) {
    io.err(`zhin-gen catalog: --platform P and --scope S are required (S: ${oneOf(CHANNEL_SCOPES)})`);
    return 64;
  }
  if (!(CHANNEL_SCOPES as readonly string[]).includes(scope)) {
    io.err(`zhin-gen catalog: unknown --scope "${scope}" (${oneOf(CHANNEL_SCOPES)})`);
    return 64;
  }
  const provider = (values.provider ?? 'anthropic') as ModelProvider;
  if (!MODEL_PROVIDERS.includes(provider)) {
    io.err(`zhin-gen catalog: unknown --provider "${provider}" (${oneOf(MODEL_PROVIDERS)})`);
    return 64;
  }
  // `--json` prints only JSON, and a JSON document also when the catalog cannot be made (exit 1).
  const fail = (error: string, diagnostics: readonly Diagnostic[] = []): number => {
    if (values.json) io.out(JSON.stringify({ error, diagnostics: toJsonDiagnostics(diagnostics) }, null, 2));
    return 1;
  };
  const result = await compiler.run({ write: false });
  if (result.errors > 0) {
    io.err(formatPretty(result.diagnostics, palette(io.errTTY ?? io.isTTY), { root: compiler.root }));
    io.err('zhin-gen catalog: the tree has errors; fix them first');
    return fail('the tree has errors; fix them first', result.diagnostics);
  }
  const manifest = await manifestFromCode(result.code);
  const user = values.user ?? 'catalog-user';
  const roles = [...(values.role ?? [])];
  const message: ImMessage = {
    $adapter: platform,
    $channel: { id: 'catalog', type: scope },
    $sender: { id: user, ...(roles.length ? { role: roles } : {}) },
  };

  const host = createCapabilityHost({ permissions: new PermissionHost(), sessions: createMemorySessionStore() });
  await host.load(manifest);
  let turn: Awaited<ReturnType<typeof host.beginTurn>>;
  try {
    turn = await host.beginTurn({
      sessionKey: 'zhin-gen-catalog',
      message,
      ...(values.agent !== undefined ? { agent: values.agent } : {}),
      question: { ask: () => Promise.reject(new Error('zhin-gen catalog never asks')) },
    });
  } catch (error) {
    // The developer's view: why the agent is unavailable, which a host relaying the error to a
    // user must not say (runtime/turn/agent-selection.ts).
    const message =
      error instanceof AgentUnavailableError
        ? error.reason === 'unknown'
          ? `unknown agent "${error.agent}"`
          : `${error.message}: it serves platforms [${error.platforms.join(', ')}]`
        : error instanceof Error
          ? error.message
          : String(error);
    io.err(`zhin-gen catalog: ${message}`);
    await host.close();
    return fail(message);
  }
  try {
    const requestedSkills: { name: string; status: 'loaded' | 'unavailable'; detail: string | null }[] = [];
    let unknownSkill = false;
    for (const name of values.skill ?? []) {
      try {
        await turn.deferred.loadSkill(name);
        requestedSkills.push({ name, status: 'loaded', detail: null });
      } catch (error) {
        if (!(error instanceof CatalogNotFoundError)) throw error;
        const known = manifest.skills.some((entry) => entry.qualifiedName === name);
        unknownSkill ||= !known;
        requestedSkills.push({
          name,
          status: 'unavailable',
          detail: known ? null : NO_SKILL,
        });
      }
    }
    const [listing, sent, omissions] = await Promise.all([
      turn.deferred.listing(),
      turn.modelTools({ provider }),
      turn.deferred.omissions(),
    ]);
    const sentNames = new Set(sent.map((tool) => ('function' in tool ? tool.function.name : tool.name)));
    for (const request of requestedSkills) {
      if (request.status === 'unavailable' && request.detail === null) {
        request.detail =
          omissions.find((o) => o.kind === 'skill' && o.name === request.name)?.reason.detail ??
          'not available in this turn';
      }
    }
    const report: CatalogJson = {
      turn: {
        platform,
        scope,
        user,
        roles,
        agent: turn.agent ?? null,
        agentSelection: turn.agentSelection,
        provider,
        generation: turn.generation,
      },
      tools: listing.tools.map((tool) => ({
        name: tool.name,
        state: tool.state,
        sent: sentNames.has(tool.name),
        reason: tool.reason ?? null,
        description: tool.description,
      })),
      skills: listing.skills.map((entry) => ({ ...entry })),
      agents: listing.agents.map((entry) => ({ ...entry })),
      omitted: omissions.map((o: Omission) => ({
        name: o.name,
        kind: o.kind,
        code: o.reason.code,
        detail: o.reason.detail,
      })),
      conditional: manifest.plugins.flatMap((plugin) =>
        plugin.conditionalTools.map((tool) => ({
          name: tool.qualifiedName,
          source: tool.source,
          detail: 'added by setup() at runtime; setup() is not run by catalog',
        })),
      ),
      requestedSkills,
    };
    io.out(values.json ? JSON.stringify(report, null, 2) : pretty(report, listing));
    // Why it exits 1, where a script looks for it (stdout may be a JSON document).
    for (const r of requestedSkills)
      if (r.detail === NO_SKILL) io.err(`zhin-gen catalog: --skill ${r.name}: ${NO_SKILL}`);
    return unknownSkill ? 1 : 0;
  } finally {
    await turn.end();
    await host.close();
  }
}

function pretty(report: CatalogJson, listing: TurnListing): string {
  const { turn } = report;
  const width =
    Math.max(12, ...report.tools.map((t) => t.name.length), ...report.omitted.map((o) => o.name.length)) + 2;
  const pad = (text: string, n = width) => text.padEnd(n);
  const agent =
    turn.agent === null
      ? 'no agent'
      : `agent ${turn.agent} (${turn.agentSelection === 'platform' ? 'platform agent, auto-selected' : 'selected'})`;
  const lines = [
    `zhin-gen catalog: platform ${turn.platform}, scope ${turn.scope}, user ${turn.user}${turn.roles.length ? `, roles ${turn.roles.join(', ')}` : ''}; ${agent}; provider ${turn.provider}`,
    '',
  ];
  const sent = report.tools.filter((t) => t.sent);
  const loaded = sent.filter((t) => t.state === 'loaded').length;
  const unsent = report.tools.length - sent.length;
  lines.push(
    `Tools sent (${turn.provider}): ${loaded} loaded, ${sent.length - loaded} deferred${unsent ? `; ${unsent} listed but not sent` : ''}`,
  );
  for (const tool of report.tools) {
    // Not "discover", the meta tool's own name in the column beside it.
    const state = tool.sent ? tool.state : 'not sent';
    lines.push(`  ${pad(state, 10)}${pad(tool.name)}${pad(tool.reason ?? '', 8)}${tool.description.split('\n')[0]}`);
  }
  lines.push('', `Skills listed (${listing.skills.length})`);
  for (const entry of report.skills)
    lines.push(`  ${pad(entry.name)}${entry.loaded ? '[loaded] ' : ''}${entry.description.split('\n')[0]}`);
  lines.push('', `Agents listed (${listing.agents.length})`);
  for (const entry of report.agents)
    lines.push(`  ${pad(entry.name)}${entry.selected ? '[selected] ' : ''}${entry.description.split('\n')[0]}`);
  if (report.requestedSkills.some((r) => r.status === 'unavailable')) {
    lines.push('', 'Requested skills not loaded');
    for (const r of report.requestedSkills.filter((x) => x.status === 'unavailable'))
      lines.push(`  ${pad(r.name)}${r.detail ?? ''}`);
  }
  lines.push('', `Left out (${report.omitted.length})`);
  for (const o of report.omitted) lines.push(`  ${pad(o.kind, 6)}${pad(o.name)}${o.detail}`);
  if (report.conditional.length) {
    lines.push('', `Conditional (${report.conditional.length})`);
    for (const c of report.conditional) lines.push(`  ${pad('tool', 6)}${pad(c.name)}${c.detail} (${c.source})`);
  }
  if (turn.provider !== 'anthropic')
    lines.push(
      '',
      `("not sent": listed for ${turn.provider}, found by discover, and sent once load_tool / load_skill loads it)`,
    );
  // Names and descriptions are the tree's text (a description's first line: one row each): never
  // escape sequences or bidi controls on a terminal.
  return lines.map(printable).join('\n');
}
