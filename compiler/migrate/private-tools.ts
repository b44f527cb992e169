/**
 * The tools folders of agents and skills: `agents/<a>/tools/`, `skills/<s>/tools/`,
 * `agents/<a>/skills/<s>/tools/`. The compiler reports a flat file there (`<x>.ts`: ZG1055,
 * scan/earlier-layout.ts earlierFlatFile) and a `.tool.md` (ZG1056) as it does in the plugin's
 * `tools/`, and tells the author to run migrate; so migrate converts them as tools.ts and
 * tool-md.ts do the plugin's, into the same folder: `<folder>/<x>/index.ts`, named after the file
 * (the qualifiedName, `<a>__<x>` or `<s>__<x>`, is kept). It runs on the tree as the other passes
 * left it: a skill or agent directory they moved (`agent/skills/<s>/` to `skills/<s>/`) carried its
 * flat files along, and those move once more; its `.tool.md` tools they leave where they are and
 * convert into the new place (carriedToolMarkdown, convertCarried). So `check` never sends the
 * author back to a migrate that says there is nothing to do, and a second run changes nothing.
 */
import { qualify } from '@zhin-gen/runtime/names';
import { compareStrings } from '../diagnostics.js';
import { earlierFlatFile } from '../scan/earlier-layout.js';
import type { Draft } from './draft.js';
import { dirOf } from './imports.js';
import { directoryName, ownerOf } from './names.js';
import { isCodeFile } from './source.js';
import { readFrontMatter } from './markdown.js';
import { convertToolMarkdown, handlerOf, type ToolsFolder } from './tool-md.js';
import { ENTRY, extensionOf, isTestFile, isToolModule, stem } from './tools.js';
import { childrenOf, filesBelow, join2 } from './tree.js';
import type { SourceTree } from './types.js';

export interface Enclosure {
  /** The name the tools' qualifiedNames are prefixed with (toolQualifiedName: the skill's, else the agent's). */
  readonly scope: string;
  /** For the plan: `agent "reviewer"`, `skill "triage" of agent "reviewer"`. */
  readonly of: string;
}

/** The enclosure of a tools folder from its path segments below the plugin, if it is an agent's or a skill's. */
function enclosureOf(segments: readonly string[]): Enclosure | undefined {
  const [top, a, folder, s, inner] = segments;
  if (segments.length === 3 && folder === 'tools' && top === 'agents') return { scope: a!, of: `agent "${a}"` };
  if (segments.length === 3 && folder === 'tools' && top === 'skills') return { scope: a!, of: `skill "${a}"` };
  if (segments.length === 5 && top === 'agents' && folder === 'skills' && inner === 'tools')
    return { scope: s!, of: `skill "${s}" of agent "${a}"` };
  return undefined;
}

/** The tools folders of skill `name`'s directory, for carriedToolMarkdown. */
export function skillFolders(name: string): (folder: string) => Enclosure | undefined {
  return (folder) => enclosureOf(['skills', name, ...folder.split('/')]);
}

/** The tools folders of agent `name`'s directory (its own, its skills'), for carriedToolMarkdown. */
export function agentFolders(name: string): (folder: string) => Enclosure | undefined {
  return (folder) => enclosureOf(['agents', name, ...folder.split('/')]);
}

/**
 * The agents' and skills' tools folders of a plugin that hold something to convert (a flat file,
 * a `.tool.md`), by directory: one pass over the plan, so a tree in zhin-gen's layout costs no more.
 */
function toolsFolders(draft: Draft, pluginDir: string): Map<string, Enclosure> {
  const prefix = pluginDir === '' ? '' : `${pluginDir}/`;
  const folders = new Map<string, Enclosure>();
  for (const path of draft.final.keys()) {
    if (!path.startsWith(prefix)) continue;
    const segments = path.slice(prefix.length).split('/');
    // A file directly in the folder, or a `.tool.md` in a directory of it (`tools/<x>/<x>.tool.md`).
    const direct = enclosureOf(segments.slice(0, -1));
    const folderDir = dirOf(path);
    if (direct && (path.endsWith('.tool.md') || earlierFlatFile(path, 'tools', folderDir)?.code === 'ZG1055'))
      folders.set(folderDir, direct);
    const below = path.endsWith('.tool.md') ? enclosureOf(segments.slice(0, -2)) : undefined;
    if (below) folders.set(dirOf(folderDir), below);
  }
  return new Map([...folders].sort(([a], [b]) => compareStrings(a, b)));
}

/** Whether a tool of the folder has or keeps the name: a `<candidate>/` directory, or a flat file still to convert. */
function nameTaken(draft: Draft, folderDir: string, candidate: string): boolean {
  for (const path of draft.final.keys()) {
    if (!path.startsWith(`${folderDir}/`)) continue;
    const rest = path.slice(folderDir.length + 1);
    if (rest.startsWith(`${candidate}/`)) return true;
    if (rest.includes('/')) continue;
    const name = rest.endsWith('.tool.md') ? rest.slice(0, -'.tool.md'.length) : isCodeFile(rest) ? stem(rest) : '';
    if (name === candidate) return true;
  }
  return false;
}

/** Whether the folder still holds a `.tool.md` tool: its modules stay beside it (one is its handler). */
function holdsToolMarkdown(draft: Draft, folderDir: string): boolean {
  const entries = new Set<string>();
  const markdown = new Set<string>();
  for (const path of draft.final.keys()) {
    if (!path.startsWith(`${folderDir}/`)) continue;
    const rest = path.slice(folderDir.length + 1).split('/');
    if (rest.length === 1 && rest[0]!.endsWith('.tool.md')) return true;
    if (rest.length === 2 && rest[1]!.endsWith('.tool.md')) markdown.add(rest[0]!);
    if (rest.length === 2 && ENTRY.test(rest[1]!)) entries.add(rest[0]!);
  }
  return [...markdown].some((dir) => !entries.has(dir));
}

/** One folder's `.tool.md` tools that are where they were (a carried one was converted by convertCarried, or refused). */
function convertMarkdownTools(draft: Draft, pluginDir: string, folderDir: string, folder: ToolsFolder): void {
  const { files, dirs } = childrenOf(draft.tree, folderDir);
  for (const file of files) {
    const path = `${folderDir}/${file}`;
    if (file.endsWith('.tool.md') && draft.isUntouched(path))
      convertToolMarkdown(draft, pluginDir, path, undefined, folder);
  }
  for (const sub of dirs) {
    const subDir = `${folderDir}/${sub}`;
    const inner = childrenOf(draft.tree, subDir).files;
    const toolMd = inner.find((f) => f.endsWith('.tool.md'));
    if (!toolMd || inner.some((f) => ENTRY.test(f)) || !draft.isUntouched(`${subDir}/${toolMd}`)) continue;
    convertToolMarkdown(draft, pluginDir, `${subDir}/${toolMd}`, subDir, folder);
  }
}

export function migratePrivateTools(draft: Draft, pluginDir: string): void {
  for (const [folderDir, { scope, of }] of toolsFolders(draft, pluginDir)) {
    // qualify(qualify(owner, scope), name) is the tools' qualifiedName: renames are reported by it.
    const owner = qualify(ownerOf(pluginDir), scope);
    const taken = (candidate: string) => nameTaken(draft, folderDir, candidate);
    convertMarkdownTools(draft, pluginDir, folderDir, { dir: folderDir, owner, of, taken });
    const keepModules = holdsToolMarkdown(draft, folderDir);
    const flat = [...draft.final.keys()]
      .filter((p) => dirOf(p) === folderDir && earlierFlatFile(p, 'tools', folderDir)?.code === 'ZG1055')
      .sort(compareStrings);
    for (const path of flat) {
      const origin = draft.final.get(path)?.origin ?? path;
      const file = path.slice(folderDir.length + 1);
      const at = { file: path, line: 1, column: 1 };
      if (!isTestFile(file) && isToolModule(path, draft.text(path))) {
        const name = directoryName(draft, 'tool', owner, stem(file), { ...at, file: origin }, taken);
        draft.relocate(
          path,
          `${folderDir}/${name}/index${extensionOf(file)}`,
          `tool file ${origin} becomes the tool directory ${folderDir}/${name}/ (tool "${name}", private to ${of})`,
          at,
        );
      } else if (!keepModules) {
        // As in the plugin's tools/: shared code leaves the convention folder for src/, mirrored.
        const helperDir = join2(
          pluginDir,
          `src/${pluginDir === '' ? folderDir : folderDir.slice(pluginDir.length + 1)}`,
        );
        draft.relocate(
          path,
          `${helperDir}/${file}`,
          `${origin} is not a tool (no default-exported defineAgentTool): shared code moves to ${helperDir}/`,
          at,
        );
      }
    }
  }
}

/** The `.tool.md` tools below a skill or agent directory another pass moves, and the files their conversions take. */
export interface CarriedTools {
  readonly tools: readonly {
    readonly path: string;
    /** The tool's own directory (`tools/<x>/<x>.tool.md`), when it has one. */
    readonly toolDir?: string;
    /** Its tools folder, relative to the directory: `tools`, `skills/<s>/tools`. */
    readonly folder: string;
    readonly enclosure: Enclosure;
  }[];
  /** Files below the directory a conversion takes (the `.tool.md`, its handler, its directory's): not part of the move. */
  readonly files: ReadonlySet<string>;
}

/**
 * The `.tool.md` tools in the tools folders below `dir` (`enclosure`: what a folder's tools are
 * private to, undefined for a folder that is no tools folder: skillFolders, agentFolders), to be
 * left out of the directory's move and converted after it: what a conversion starts from must
 * still be where it was, and a `.tool.md` the move carried along would wait for a second run.
 */
export function carriedToolMarkdown(
  tree: SourceTree,
  dir: string,
  enclosure: (folder: string) => Enclosure | undefined,
): CarriedTools {
  const tools: CarriedTools['tools'][number][] = [];
  const files = new Set<string>();
  for (const path of filesBelow(tree, dir)) {
    if (!path.endsWith('.tool.md')) continue;
    const rest = path.slice(dir.length + 1).split('/');
    const flat = enclosure(rest.slice(0, -1).join('/'));
    const folder = flat !== undefined ? rest.slice(0, -1).join('/') : rest.slice(0, -2).join('/');
    const inFolder = flat ?? enclosure(folder);
    if (inFolder === undefined || folder === '') continue;
    let toolDir: string | undefined;
    if (flat === undefined) {
      // As in the plugin's tools/: a directory with an entry is a tool already; its first `.tool.md` is the tool.
      toolDir = dirOf(path);
      const inner = childrenOf(tree, toolDir).files;
      if (inner.some((f) => ENTRY.test(f)) || inner.find((f) => f.endsWith('.tool.md')) !== rest[rest.length - 1])
        continue;
    }
    tools.push({ path, ...(toolDir !== undefined ? { toolDir } : {}), folder, enclosure: inFolder });
    const parsed = readFrontMatter(tree.read(path));
    const handler = parsed.ok ? handlerOf(tree, path, parsed.value.data) : undefined;
    for (const file of [path, ...(handler ? [handler] : []), ...(toolDir ? filesBelow(tree, toolDir) : [])])
      if (file.startsWith(`${dir}/`)) files.add(file);
  }
  return { tools, files };
}

/**
 * Converts the carried `.tool.md` tools into the moved directory's tools folders (`target` is
 * where `dir` went); what a conversion could not take (it is reported) follows the directory, as
 * its move would have taken it.
 */
export function convertCarried(
  draft: Draft,
  pluginDir: string,
  carried: CarriedTools,
  dir: string,
  target: string,
  why: string,
): void {
  for (const tool of carried.tools) {
    const folderDir = `${target}/${tool.folder}`;
    const owner = qualify(ownerOf(pluginDir), tool.enclosure.scope);
    const taken = (candidate: string) => nameTaken(draft, folderDir, candidate);
    convertToolMarkdown(draft, pluginDir, tool.path, tool.toolDir, {
      dir: folderDir,
      owner,
      of: tool.enclosure.of,
      taken,
    });
  }
  const followed = new Map<string, string>();
  for (const file of carried.files) {
    const to = target + file.slice(dir.length);
    if (draft.isUntouched(file) && draft.relocate(file, to, why, { file, line: 1, column: 1 })) followed.set(file, to);
  }
  // A refused conversion's report names the file where it is before --write; after, where it followed.
  draft.notes.forEach((note, i) => {
    const to = followed.get(note.file);
    if (to === undefined) return;
    const after = { ...note, file: to };
    draft.notes[i] = after;
    draft.noteSources.set(after, note.file);
  });
}
