/**
 * Scan, step two: inventory → plugin layout. A pure function of the sorted path list, so watch
 * mode can patch the inventory from file events and re-derive the layout without touching disk.
 * It knows the authoring conventions of docs/authoring.md and reports layout problems (names, missing
 * entries, stray files); it reads no file contents.
 */
import type { ToolPlacement } from '@zhin-gen/runtime';
import { segmentNameProblem, skillNameProblem, toolLocalNameProblem } from '@zhin-gen/runtime/names';
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type { Writable } from '../util/writable.js';
import {
  EARLIER_AGENT_FOLDER,
  EarlierFolderFiles,
  earlierAgentFolderFile,
  earlierFlatFile,
  earlierToolDirectory,
} from './earlier-layout.js';
import { isGroupingCandidate } from './walk.js';

export type CapabilityKind = 'tool' | 'skill' | 'agent' | 'hook' | 'prompt-section';

const FOLDER_KIND: Readonly<Record<string, CapabilityKind>> = {
  tools: 'tool',
  skills: 'skill',
  agents: 'agent',
  hooks: 'hook',
  'prompt-sections': 'prompt-section',
};

/** Which convention folders may appear inside a capability directory of each kind. */
const NESTED: Readonly<Record<CapabilityKind, readonly string[]>> = {
  tool: [],
  hook: [],
  'prompt-section': [],
  skill: ['tools', 'hooks'],
  agent: ['tools', 'hooks', 'skills'],
};

export const ENTRY_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'] as const;

export interface CapabilityDir {
  readonly kind: CapabilityKind;
  readonly name: string;
  /** POSIX directory relative to the root, no trailing slash. */
  readonly dir: string;
  /** Files of this capability (not of nested capabilities), relative to the root. */
  readonly files: string[];
  /** Direct children of the directory (names), with their type. */
  readonly entries: { name: string; isDirectory: boolean }[];
  readonly children: CapabilityDir[];
}

export interface PluginLayout {
  readonly owner: string;
  /** POSIX directory relative to the root ('' for the root itself). */
  readonly dir: string;
  agentsMd?: string;
  entry?: string;
  readonly caps: CapabilityDir[];
}

export interface Layout {
  readonly plugins: PluginLayout[];
  readonly diagnostics: Diagnostic[];
}

export interface ExtraPlugin {
  readonly owner: string;
  /** POSIX directory relative to the root. */
  readonly dir: string;
}

function isSorted(paths: readonly string[]): boolean {
  for (let i = 1; i < paths.length; i++) if (paths[i - 1]! > paths[i]!) return false;
  return true;
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

class LayoutBuilder {
  readonly plugins = new Map<string, PluginLayout>();
  readonly diagnostics: Diagnostic[] = [];
  /** Non-construct files of earlier-layout `agent/` folders, reported once per folder. */
  readonly earlierFiles = new EarlierFolderFiles();
  /** Capability directories by path: insertion is O(1), so the layout stays linear in N. */
  private readonly caps = new Map<string, CapabilityDir>();
  constructor(private readonly pluginEntry: readonly string[]) {}

  addPlugin(owner: string, dir: string): void {
    if (this.plugins.has(dir)) return;
    this.plugins.set(dir, { owner, dir, caps: [] });
    this.byParent.clear();
  }

  /** The innermost plugin of each parent directory seen (sorted paths come in runs of siblings). */
  private readonly byParent = new Map<string, { plugin: PluginLayout; cut: number } | null>();

  /**
   * Finds the innermost plugin whose directory is a proper prefix of `path`, and the path's
   * segments below it: one map lookup per `/` of the path, from the deepest, so the cost follows
   * the path's depth and not the number of plugins (every path of the tree is looked up), and
   * once per parent directory.
   */
  pluginOf(path: string): { plugin: PluginLayout; rest: string[] } | undefined {
    const slash = path.lastIndexOf('/');
    const parent = slash > 0 ? path.slice(0, slash) : '';
    let found = this.byParent.get(parent);
    if (found === undefined) {
      found = null;
      for (let cut = slash; cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
        const plugin = this.plugins.get(path.slice(0, cut));
        if (plugin) {
          found = { plugin, cut };
          break;
        }
      }
      if (found === null) {
        const root = this.plugins.get('');
        if (root) found = { plugin: root, cut: -1 };
      }
      this.byParent.set(parent, found);
    }
    return found ? { plugin: found.plugin, rest: path.slice(found.cut + 1).split('/') } : undefined;
  }

  /**
   * The capability each directory's files went into, once one file of it did: a file's place
   * follows from its directory alone (its siblings went the same way), so the other files of
   * that directory skip the plugin lookup and the segment walk. ~12,000 of a 5,000-tool tree's
   * 17,000 paths are files inserted this way.
   */
  private readonly fileCap = new Map<string, CapabilityDir>();

  insert(path: string): void {
    const isDir = path.endsWith('/');
    if (!isDir) {
      const slash = path.lastIndexOf('/');
      const cap = slash > 0 ? this.fileCap.get(path.slice(0, slash)) : undefined;
      if (cap !== undefined) {
        const name = path.slice(slash + 1);
        if (slash !== cap.dir.length) {
          cap.files.push(path);
          return;
        }
        // A file directly in the capability directory is one of its entries; one named like a
        // nested convention folder (a file `tools` in a skill) is not one of its files.
        cap.entries.push({ name, isDirectory: false });
        if (!NESTED[cap.kind].includes(name)) cap.files.push(path);
        return;
      }
    }
    const found = this.pluginOf(isDir ? path.slice(0, -1) : path);
    if (!found) return;
    const { plugin, rest } = found;
    if (rest.length === 1 && !isDir) {
      if (rest[0] === 'AGENTS.md') plugin.agentsMd = path;
      else if (this.pluginEntry.includes(rest[0]!)) {
        const current = plugin.entry ? this.pluginEntry.indexOf(plugin.entry.split('/').pop()!) : Infinity;
        if (this.pluginEntry.indexOf(rest[0]!) < current) plugin.entry = path;
      } else if (FOLDER_KIND[rest[0]!] || rest[0] === 'plugins') {
        // A file named as a convention folder (`tools`), where the folder belongs.
        this.diagnostics.push(
          diag('ZG1009', {
            file: path,
            message: `"${path}" is a file where the ${rest[0]}/ folder belongs; capabilities live in their own directory (${rest[0]}/<name>/)`,
          }),
        );
      }
      return;
    }
    if (rest[0] === 'plugins') {
      if (rest.length === 2 && !isDir) this.stray(path, 'plugins');
      return;
    }
    // A plugin entry in a folder beside a child plugin's conventions (scan/walk.ts `probe`).
    if (rest.length === 2 && !isDir && plugin.owner !== '' && isGroupingCandidate(rest[0]!)) {
      this.diagnostics.push(
        diag('ZG1065', {
          file: path,
          message: `"${join(plugin.dir, rest[0]!)}/" holds a plugin entry but is no child plugin: child plugin "${plugin.owner}" reads only its convention folders, so this plugin and every capability below it are not compiled; move it to ${join(plugin.dir, `plugins/${rest[0]}`)}/, or name it in the config's \`plugins\` map`,
        }),
      );
      return;
    }
    if (rest[0] === EARLIER_AGENT_FOLDER) {
      const earlier = isDir ? undefined : earlierAgentFolderFile(plugin.dir, rest, path, this.earlierFiles);
      if (earlier) this.diagnostics.push(earlier);
      return;
    }
    const kind = FOLDER_KIND[rest[0]!];
    if (!kind) return;
    this.insertInto(plugin.caps, join(plugin.dir, rest[0]!), kind, rest.slice(1), isDir, path);
  }

  private stray(path: string, folder: string, folderDir = folder): void {
    const earlier = earlierFlatFile(path, folder, folderDir);
    if (earlier) {
      this.diagnostics.push(earlier);
      return;
    }
    this.diagnostics.push(
      diag('ZG1009', {
        file: path,
        message: `"${path}" is a file directly inside ${folder}/; capabilities live in their own directory (${folder}/<name>/)`,
      }),
    );
  }

  private insertInto(
    list: CapabilityDir[],
    folderDir: string,
    kind: CapabilityKind,
    rest: string[],
    isDir: boolean,
    path: string,
  ): void {
    if (rest.length === 0) return;
    if (rest.length === 1 && !isDir) {
      this.stray(path, folderDir.split('/').pop()!, folderDir);
      return;
    }
    const name = rest[0]!;
    const dir = join(folderDir, name);
    let cap = this.caps.get(dir);
    if (!cap) {
      cap = { kind, name, dir, files: [], entries: [], children: [] };
      this.caps.set(dir, cap);
      list.push(cap);
    }
    const inner = rest.slice(1);
    if (inner.length === 0) return;
    if (inner.length === 1) cap.entries.push({ name: inner[0]!, isDirectory: isDir });
    const nestedKind = NESTED[kind].includes(inner[0]!) ? FOLDER_KIND[inner[0]!] : undefined;
    if (nestedKind) {
      this.insertInto(cap.children, join(dir, inner[0]!), nestedKind, inner.slice(1), isDir, path);
    } else if (!isDir) {
      cap.files.push(path);
      this.fileCap.set(path.slice(0, path.lastIndexOf('/')), cap);
    }
  }
}

/**
 * Builds the layout. Plugins are the root, every `plugins/<key>/` directory (recursively) and
 * the configured extra plugins.
 */
export function buildLayout(
  input: readonly string[],
  pluginEntry: readonly string[],
  extra: readonly ExtraPlugin[] = [],
): Layout {
  // Whatever order the inventory arrives in, the layout (and so the output) is the same. The
  // walk's inventory is already sorted: checking is one pass, sorting again was a second sort.
  const paths = isSorted(input) ? input : [...input].sort(compareStrings);
  const builder = new LayoutBuilder(pluginEntry);
  builder.addPlugin('', '');
  for (const plugin of extra) builder.addPlugin(plugin.owner, plugin.dir);
  // Child plugins first, outermost first (paths are sorted, so parents precede children).
  for (const path of paths) {
    if (!path.endsWith('/')) continue;
    // Only a directory inside a `plugins/` folder can be a child plugin: no split for the rest.
    if (!path.startsWith('plugins/') && !path.includes('/plugins/')) continue;
    const segments = path.slice(0, -1).split('/');
    if (segments.length < 2 || segments[segments.length - 2] !== 'plugins') continue;
    const parent = builder.pluginOf(segments.slice(0, -1).join('/'));
    if (parent?.rest.length !== 1) continue;
    const key = segments[segments.length - 1]!;
    if (segmentNameProblem(key)) {
      builder.diagnostics.push(
        diag('ZG1002', { file: path.slice(0, -1), message: `Child plugin key "${key}" is not a valid name` }),
      );
      continue;
    }
    const owner = parent.plugin.owner === '' ? key : `${parent.plugin.owner}/${key}`;
    builder.addPlugin(owner, segments.join('/'));
  }
  for (const path of paths) builder.insert(path);
  builder.diagnostics.push(...builder.earlierFiles.diagnostics());
  return { plugins: [...builder.plugins.values()], diagnostics: builder.diagnostics };
}

/** One capability directory with its enclosure, flattened for the parse stage. */
export interface CapabilityUnit {
  readonly kind: CapabilityKind;
  readonly owner: string;
  readonly placement: ToolPlacement;
  readonly agent?: string;
  readonly skill?: string;
  readonly name: string;
  readonly dir: string;
  /** Entry file (index.* for code capabilities, SKILL.md, agent.json), if present. */
  readonly entry?: string;
  readonly files: readonly string[];
  readonly entries: readonly { name: string; isDirectory: boolean }[];
  /** Plugin directory ('' for the root). */
  readonly pluginDir: string;
}

/**
 * The unit of a capability directory, sharing its file and entry arrays (keys in one order:
 * the layout store restores units through here too, scan/layout-store.ts).
 */
export function unitOf(
  cap: CapabilityDir,
  plugin: Pick<PluginLayout, 'owner' | 'dir'>,
  placement: ToolPlacement,
  agent: string | undefined,
  skill: string | undefined,
  entry: string | undefined,
): CapabilityUnit {
  // Assigned in key order, not spread (util/writable.ts): one per unit of every fresh run.
  const unit = { kind: cap.kind, owner: plugin.owner, placement } as Writable<CapabilityUnit>;
  if (agent !== undefined) unit.agent = agent;
  if (skill !== undefined) unit.skill = skill;
  unit.name = cap.name;
  unit.dir = cap.dir;
  if (entry) unit.entry = entry;
  unit.files = cap.files;
  unit.entries = cap.entries;
  unit.pluginDir = plugin.dir;
  return unit;
}

function entryOf(cap: CapabilityDir): string | undefined {
  const names = cap.kind === 'skill' ? ['SKILL.md'] : cap.kind === 'agent' ? ['agent.json'] : ENTRY_FILES;
  for (const name of names) {
    const path = `${cap.dir}/${name}`;
    if (cap.files.includes(path)) return path;
  }
  return undefined;
}

/** Flattens the layout into units, checking directory names (ZG1001, ZG1002, ZG1080, ZG3005) and entries (ZG1003). */
export function collectUnits(layout: Layout): { units: CapabilityUnit[]; diagnostics: Diagnostic[] } {
  const units: CapabilityUnit[] = [];
  const diagnostics: Diagnostic[] = [];
  const visit = (
    plugin: PluginLayout,
    cap: CapabilityDir,
    agent: string | undefined,
    skill: string | undefined,
  ): void => {
    const file = cap.dir;
    // The rules the runtime applies to the same names (runtime/contract/names.ts).
    const problem =
      cap.kind === 'tool'
        ? toolLocalNameProblem(cap.name)
        : cap.kind === 'skill'
          ? skillNameProblem(cap.name)
          : segmentNameProblem(cap.name);
    if (problem) {
      const code =
        problem.rule === 'separator'
          ? 'ZG3005'
          : problem.rule !== 'pattern'
            ? 'ZG1080'
            : cap.kind === 'tool'
              ? 'ZG1001'
              : 'ZG1002';
      const what = cap.kind === 'tool' ? 'Tool' : cap.kind;
      diagnostics.push(diag(code, { file, message: `${what} directory "${cap.name}" ${problem.message}` }));
      return;
    }
    const entry = entryOf(cap);
    const placement: ToolPlacement =
      agent !== undefined ? (skill !== undefined ? 'agent-skill' : 'agent') : skill !== undefined ? 'skill' : 'plugin';
    const earlier = !entry && cap.kind === 'tool' ? earlierToolDirectory(cap.dir, cap.files) : undefined;
    if (earlier) diagnostics.push(earlier);
    else if (!entry && cap.kind !== 'agent') {
      const expected = cap.kind === 'skill' ? 'SKILL.md' : 'index.ts (or index.mts / index.js / index.mjs)';
      diagnostics.push(diag('ZG1003', { file, message: `${cap.kind} directory "${cap.dir}" has no ${expected}` }));
    }
    units.push(unitOf(cap, plugin, placement, agent, skill, entry));
    for (const child of cap.children) {
      if (cap.kind === 'agent') visit(plugin, child, cap.name, child.kind === 'skill' ? child.name : undefined);
      else visit(plugin, child, agent, cap.kind === 'skill' ? cap.name : skill);
    }
  };
  for (const plugin of layout.plugins) for (const cap of plugin.caps) visit(plugin, cap, undefined, undefined);
  return { units, diagnostics };
}
