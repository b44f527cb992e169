/**
 * Runtime names across the migration. The earlier layout named a capability by its file or its
 * `name`; zhin-gen names it by its directory, so migrate names the directory after the earlier
 * name and the qualifiedName stays what the model called before. Only a name zhin-gen cannot
 * accept (upper case, `$`, spaces, `__`) changes, to the nearest valid one, and is reported.
 */
import { qualify, segmentNameProblem, toolLocalNameProblem } from '@zhin-gen/runtime/names';
import type { SourceLocation } from '../diagnostics.js';
import type { Draft } from './draft.js';
import type { Rename } from './types.js';
import { isCodeFile } from './source.js';
import { join2 } from './tree.js';
import { readFrontMatter } from './markdown.js';

export type NamedKind = Rename['kind'];

function isInvalid(kind: NamedKind, name: string): boolean {
  if (kind === 'tool') return toolLocalNameProblem(name) !== undefined;
  if (segmentNameProblem(name)) return true;
  // Skills also follow the Agent Skills name rules: at most 64 characters, no "--", no trailing "-".
  return kind === 'skill' && (name.length > 64 || name.includes('--') || name.endsWith('-'));
}

/** The nearest valid name: lower case, other characters to `_` (tools) or `-`, no doubled separators. */
export function nearestValidName(kind: NamedKind, name: string): string {
  const separator = kind === 'tool' ? '_' : '-';
  const allowed = kind === 'tool' ? /[a-z0-9_-]/ : /[a-z0-9-]/;
  let out = '';
  for (const char of name.toLowerCase()) out += allowed.test(char) ? char : separator;
  out = out.replace(/__+/g, '_').replace(/--+/g, '-');
  out = out.replace(/^[^a-z0-9]+/, '').replace(/[_-]+$/, '');
  if (kind === 'skill') out = out.slice(0, 64).replace(/-+$/, '');
  return out === '' ? (kind === 'tool' ? 'tool' : kind) : out;
}

/**
 * The directory name for an earlier name: the name itself when valid, else the nearest valid
 * one that no other capability of the plugin has or keeps (`taken`: `dice` beside `$dice` makes
 * it `dice_2`, so the model's `dice` stays the tool it was), recorded as a rename
 * (qualifiedNames) and reported (ZG6003) at `at`.
 */
export function directoryName(
  draft: Draft,
  kind: NamedKind,
  owner: string,
  name: string,
  at: SourceLocation,
  taken: (candidate: string) => boolean = () => false,
): string {
  if (!isInvalid(kind, name)) return name;
  const nearest = nearestValidName(kind, name);
  const separator = kind === 'tool' ? '_' : '-';
  let valid = nearest;
  for (let n = 2; taken(valid); n++) valid = `${nearest}${separator}${n}`;
  const from = qualify(owner, name);
  const to = qualify(owner, valid);
  draft.renames.push({ kind, from, to, at });
  return valid;
}

/** The owner (child-plugin path of keys) of a plugin directory: '' for the root, `maps/cn` below. */
export function ownerOf(pluginDir: string): string {
  if (pluginDir === '') return '';
  const segments = pluginDir.split('/');
  const keys: string[] = [];
  for (let i = 0; i + 1 < segments.length; i++) if (segments[i] === 'plugins') keys.push(segments[i + 1]!);
  return keys.join('/');
}

/** The earlier name of a `<x>.tool.md` tool: its front matter's `name`, else the file's name. */
export function toolMdName(path: string, data: Readonly<Record<string, unknown>> | undefined): string {
  const fileStem = path.slice(path.lastIndexOf('/') + 1, -'.tool.md'.length);
  const name = data?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : fileStem;
}

/**
 * Whether a tool of the plugin has or keeps the name `candidate`: a `tools/<candidate>/`
 * directory now (of zhin-gen's layout, or an earlier tool already moved there), or an earlier
 * tool still to move that is named so: a file or folder (`tools/<candidate>.ts`,
 * `agent/tools/…`), or a `.tool.md` anywhere in those folders whose front matter names it.
 */
export function toolNameTaken(draft: Draft, pluginDir: string, candidate: string): boolean {
  const dir = `${join2(pluginDir, `tools/${candidate}`)}/`;
  for (const path of draft.final.keys()) if (path.startsWith(dir)) return true;
  return ['tools', 'agent/tools'].some((folder) => {
    const base = join2(pluginDir, `${folder}/${candidate}`);
    const inFolder = `${join2(pluginDir, folder)}/`;
    return draft.tree.files.some(
      (file) =>
        file.startsWith(`${base}/`) ||
        (file.startsWith(`${base}.`) && file.indexOf('.', base.length + 1) === -1 && isCodeFile(file)) ||
        (file.startsWith(inFolder) &&
          file.endsWith('.tool.md') &&
          toolMdName(file, frontMatterOf(draft, file)) === candidate),
    );
  });
}

function frontMatterOf(draft: Draft, file: string): Readonly<Record<string, unknown>> | undefined {
  const parsed = readFrontMatter(draft.tree.read(file));
  return parsed.ok ? parsed.value.data : undefined;
}
