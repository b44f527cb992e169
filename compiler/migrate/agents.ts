/**
 * Agents of the earlier layout: `agents/<x>.agent.md` (YAML front matter + the system prompt as
 * body) and `agents/<x>/agent.ts` (a literal definition) + `instructions.md`. Each becomes
 * `agents/<name>/` with agent.json (keys mapped by agent-json.ts), system.md, and marked stubs for
 * the required boundaries.md and conventions.md the earlier layout did not have.
 */
import type { Draft } from './draft.js';
import { agentJsonFrom, STUB_MARK } from './agent-json.js';
import { readFrontMatter } from './markdown.js';
import { directoryName, ownerOf } from './names.js';
import { agentFolders, carriedToolMarkdown, convertCarried } from './private-tools.js';
import {
  defaultExportExpression,
  definitionObject,
  lineColumn,
  literalValue,
  Node,
  PROTO_KEY,
  parse,
} from './source.js';
import { childrenOf, filesBelow, join2 } from './tree.js';
import type { Creation } from './types.js';

const AGENT_TS = ['agent.ts', 'agent.mts', 'agent.js', 'agent.mjs'];

function stubFor(file: 'boundaries.md' | 'conventions.md' | 'system.md', agent: string): string {
  const what =
    file === 'boundaries.md'
      ? ['Boundaries', `what the "${agent}" agent must never do, and when it hands back to the main agent`]
      : file === 'conventions.md'
        ? [
            'Conventions',
            `how the "${agent}" agent works beyond the plugin's AGENTS.md (no heading of AGENTS.md repeated)`,
          ]
        : ['System prompt', `who the "${agent}" agent is and what it does`];
  return `${STUB_MARK}\n# ${what[0]}\n\nTODO: write ${what[1]}.\n`;
}

/** The agent directory's files: agent.json, system.md (unless moved in), and stubs for what is missing. */
function agentFiles(
  draft: Draft,
  target: string,
  name: string,
  json: string,
  system: string | undefined,
): { creates: Creation[]; stubs: string[] } {
  const creates: Creation[] = [{ path: `${target}/agent.json`, content: json }];
  const stubs: string[] = [];
  const needs: ('system.md' | 'boundaries.md' | 'conventions.md')[] = ['boundaries.md', 'conventions.md'];
  if (system !== undefined) {
    if (system.trim() !== '') creates.push({ path: `${target}/system.md`, content: system });
    else needs.unshift('system.md');
  }
  for (const file of needs) {
    const path = `${target}/${file}`;
    if (draft.final.has(path)) continue;
    creates.push({ path, content: stubFor(file, name), stub: true });
    stubs.push(path);
  }
  return { creates, stubs };
}

function reportStubs(draft: Draft, stubs: readonly string[]): void {
  for (const path of stubs)
    draft.note(
      'ZG6002',
      { file: path, line: 1, column: 1 },
      `${path} is a stub: the earlier layout had no source for it`,
    );
}

function fromAgentMarkdown(draft: Draft, pluginDir: string, path: string): boolean {
  const text = draft.tree.read(path);
  const at = { file: path, line: 1, column: 1 };
  const parsed = readFrontMatter(text);
  if (!parsed.ok && text.startsWith('---')) {
    draft.note('ZG6001', { ...at, line: parsed.line }, `agent ${path}: not converted, ${parsed.reason}`);
    return false;
  }
  const data = parsed.ok ? parsed.value.data : {};
  const keyLines = parsed.ok ? parsed.value.keyLines : {};
  const body = parsed.ok ? parsed.value.body : text;
  const stem = path.slice(path.lastIndexOf('/') + 1, -'.agent.md'.length);
  const earlier = typeof data.name === 'string' && data.name.trim() !== '' ? data.name : stem;
  const name = directoryName(draft, 'agent', ownerOf(pluginDir), earlier, { ...at, line: keyLines.name ?? 1 });
  const target = join2(pluginDir, `agents/${name}`);
  if (draft.tree.hasDir(target)) {
    draft.note(
      'ZG6001',
      at,
      `agent ${path}: not converted, ${target}/ exists already (compare the two and delete the one you do not keep)`,
    );
    return false;
  }
  const json = agentJsonFrom(draft, data, (key) => ({ ...at, line: keyLines[key] ?? 1 }), `agent ${path}`, name);
  if (!json) return false;
  const { creates, stubs } = agentFiles(draft, target, name, json, body);
  const accepted = draft.accept({
    moves: [],
    creates,
    removes: [path],
    why: `agent ${path} becomes ${target}/ (front matter → agent.json, body → system.md; agent "${name}")`,
    at,
  });
  if (accepted) reportStubs(draft, stubs);
  return accepted;
}

function fromAgentModule(draft: Draft, pluginDir: string, dir: string, module: string): boolean {
  const text = draft.tree.read(module);
  const at = { file: module, line: 1, column: 1 };
  const found = definitionObject(defaultExportExpression(parse(module, text)));
  if (!found) {
    draft.note(
      'ZG6001',
      at,
      `agent ${module}: not converted, its default export is not an object literal (or a call with one)`,
    );
    return false;
  }
  // No prototype: a key named `__proto__` or `constructor` is a line like any other.
  const keyLines: Record<string, number> = Object.create(null);
  const data: Record<string, unknown> = {};
  for (const property of found.object.getProperties()) {
    const key = Node.isPropertyAssignment(property) ? property.getName().replace(/^['"]|['"]$/g, '') : '';
    const literal =
      Node.isPropertyAssignment(property) && key !== PROTO_KEY
        ? literalValue(property.getInitializerOrThrow())
        : { ok: false as const, node: property };
    if (!literal.ok) {
      const where = lineColumn(text, literal.node.getStart());
      draft.note(
        'ZG6001',
        { file: module, ...where },
        `agent ${module}: not converted, \`${literal.node.getText().slice(0, 60)}\` is not a literal migrate can carry into agent.json`,
      );
      return false;
    }
    data[key] = literal.value;
    keyLines[key] = lineColumn(text, property.getStart()).line;
  }
  const sub = dir.slice(dir.lastIndexOf('/') + 1);
  const earlier = typeof data.name === 'string' && data.name.trim() !== '' ? data.name : sub;
  const name = directoryName(draft, 'agent', ownerOf(pluginDir), earlier, { ...at, line: keyLines.name ?? 1 });
  const target = join2(pluginDir, `agents/${name}`);
  const instructions = `${dir}/instructions.md`;
  const inline = data.instructions ?? data.systemPrompt;
  const { instructions: _i, systemPrompt: _s, ...rest } = data;
  if (draft.tree.has(instructions) && inline !== undefined) {
    draft.note(
      'ZG6001',
      { ...at, line: keyLines.instructions ?? keyLines.systemPrompt ?? 1 },
      `agent ${module}: not converted, it has both inline instructions and ${instructions}`,
    );
    return false;
  }
  if (inline !== undefined && typeof inline !== 'string') {
    draft.note('ZG6001', at, `agent ${module}: not converted, its instructions are not a string`);
    return false;
  }
  const json = agentJsonFrom(draft, rest, (key) => ({ ...at, line: keyLines[key] ?? 1 }), `agent ${module}`, name);
  if (!json) return false;
  // Its `.tool.md` tools become tools of the moved agent (private-tools.ts), not files it carries.
  const carried = target === dir ? undefined : carriedToolMarkdown(draft.tree, dir, agentFolders(name));
  const moves =
    target === dir
      ? []
      : filesBelow(draft.tree, dir)
          .filter((from) => !carried?.files.has(from))
          .map((from) => ({ from, to: target + from.slice(dir.length) }));
  const movedModule = moves.filter((m) => m.from !== module && m.from !== instructions);
  const system = draft.tree.has(instructions) ? undefined : ((inline as string | undefined) ?? '');
  const { creates, stubs } = agentFiles(draft, target, name, json, system);
  const why = `agent ${module} becomes ${target}/agent.json${draft.tree.has(instructions) ? ` and ${instructions} becomes system.md` : ''} (agent "${name}")`;
  const accepted = draft.accept({
    moves: [
      ...movedModule,
      ...(draft.tree.has(instructions) ? [{ from: instructions, to: `${target}/system.md` }] : []),
    ],
    creates,
    removes: [module],
    why,
    at,
  });
  if (accepted) reportStubs(draft, stubs);
  if (accepted && carried) convertCarried(draft, pluginDir, carried, dir, target, why);
  return accepted;
}

/** Returns whether an agent was created in this plugin (AGENTS.md is required then). */
export function migrateAgents(draft: Draft, pluginDir: string): boolean {
  const dir = join2(pluginDir, 'agents');
  const { files, dirs } = childrenOf(draft.tree, dir);
  let created = false;
  for (const file of files)
    if (file.endsWith('.agent.md')) created = fromAgentMarkdown(draft, pluginDir, `${dir}/${file}`) || created;
  for (const sub of dirs) {
    const agentDir = `${dir}/${sub}`;
    const inner = childrenOf(draft.tree, agentDir).files;
    if (inner.includes('agent.json')) continue;
    const module = AGENT_TS.find((f) => inner.includes(f));
    if (module) created = fromAgentModule(draft, pluginDir, agentDir, `${agentDir}/${module}`) || created;
  }
  return created;
}
