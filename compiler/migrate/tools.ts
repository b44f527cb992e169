/**
 * Tool files of the earlier layout: `agent/tools/<x>.ts` (a plugin-level `agent/` folder),
 * `agent/tools/<x>/index.ts`, and flat `tools/<x>.ts`. Each becomes `tools/<x>/index.ts`, named
 * after the file so the qualifiedName is kept. A code file in those folders that is not a tool
 * (a shared helper) moves to `src/agent/tools/` or `src/tools/`, where tools import it from.
 * `<x>.tool.md` files are converted by tool-md.ts; the agents' and skills' own tools folders by
 * private-tools.ts.
 */
import { definitionObject, defaultExportExpression, isCodeFile, parse, TOOL_HELPERS } from './source.js';
import type { Draft } from './draft.js';
import { directoryName, ownerOf, toolNameTaken } from './names.js';
import { convertToolMarkdown } from './tool-md.js';
import { childrenOf, filesBelow, join2 } from './tree.js';

export const ENTRY = /^index\.(?:ts|mts|js|mjs)$/;

/** Whether a module default-exports a tool definition (`defineAgentTool(...)` or the earlier `defineTool(...)`). */
export function isToolModule(path: string, text: string): boolean {
  if (!/define(?:Agent)?Tool/.test(text)) return false;
  const found = definitionObject(defaultExportExpression(parse(path, text)));
  return found?.helper !== undefined && (TOOL_HELPERS as readonly string[]).includes(found.helper);
}

export function extensionOf(file: string): string {
  return file.slice(file.lastIndexOf('.'));
}

export function stem(file: string): string {
  return file.slice(0, file.lastIndexOf('.'));
}

export function isTestFile(file: string): boolean {
  return /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file);
}

/** One earlier tools folder of a plugin: `agent/tools` or the flat files of `tools`. */
function migrateToolsFolder(draft: Draft, pluginDir: string, folder: 'agent/tools' | 'tools'): void {
  const tree = draft.tree;
  const dir = join2(pluginDir, folder);
  const owner = ownerOf(pluginDir);
  const helperDir = join2(pluginDir, folder === 'tools' ? 'src/tools' : 'src/agent/tools');
  const { files, dirs } = childrenOf(tree, dir);
  // `.tool.md` tools first: each takes its handler module with it.
  for (const file of files)
    if (file.endsWith('.tool.md')) convertToolMarkdown(draft, pluginDir, `${dir}/${file}`, undefined);
  for (const file of files) {
    const path = `${dir}/${file}`;
    if (!isCodeFile(file) || !draft.isUntouched(path)) continue;
    const at = { file: path, line: 1, column: 1 };
    if (!isTestFile(file) && isToolModule(path, tree.read(path))) {
      const name = directoryName(draft, 'tool', owner, stem(file), at, (c) => toolNameTaken(draft, pluginDir, c));
      const to = `${join2(pluginDir, `tools/${name}`)}/index${extensionOf(file)}`;
      draft.accept({
        moves: [{ from: path, to }],
        creates: [],
        removes: [],
        why: `tool file ${path} becomes the tool directory ${to.slice(0, to.lastIndexOf('/'))}/ (tool "${name}")`,
        at,
      });
    } else {
      // A module beside the tools that is not one is shared code: it cannot stay in a convention folder.
      const to = `${helperDir}/${file}`;
      draft.accept({
        moves: [{ from: path, to }],
        creates: [],
        removes: [],
        why: `${path} is not a tool (no default-exported defineAgentTool): shared code moves to ${helperDir}/`,
        at,
      });
    }
  }
  if (folder === 'tools') {
    // tools/<x>/ is zhin-gen's own layout; only a directory holding a `.tool.md` and no entry is
    // earlier, or one of shared code only: the handler modules an earlier `agent/tools/<y>.ts`
    // imports (`tools/60s-news/handler.ts` for tool `60s_news`), which would be a tool directory
    // without index.ts (ZG1003). It moves to src/tools/<x>/, and its importers follow.
    for (const sub of dirs) {
      const subDir = `${dir}/${sub}`;
      const inner = childrenOf(tree, subDir).files;
      if (inner.some((f) => ENTRY.test(f))) continue;
      const toolMd = inner.find((f) => f.endsWith('.tool.md'));
      if (toolMd) convertToolMarkdown(draft, pluginDir, `${subDir}/${toolMd}`, subDir);
      else moveSharedCode(draft, subDir, `${helperDir}/${sub}`);
    }
    return;
  }
  for (const sub of dirs) {
    const subDir = `${dir}/${sub}`;
    const inner = childrenOf(tree, subDir).files;
    const toolMd = inner.find((f) => f.endsWith('.tool.md'));
    if (!inner.some((f) => ENTRY.test(f)) && toolMd) {
      convertToolMarkdown(draft, pluginDir, `${subDir}/${toolMd}`, subDir);
      continue;
    }
    const at = { file: subDir, line: 1, column: 1 };
    const name = directoryName(draft, 'tool', owner, sub, at, (c) => toolNameTaken(draft, pluginDir, c));
    const target = join2(pluginDir, `tools/${name}`);
    draft.accept({
      moves: filesBelow(tree, subDir).map((from) => ({ from, to: target + from.slice(subDir.length) })),
      creates: [],
      removes: [],
      why: `tool directory ${subDir}/ of the agent/ folder moves to ${target}/ (tool "${name}")`,
      at,
    });
  }
}

/** A folder of code modules none of which is a tool (nor a test of one): shared code, moved whole. */
function moveSharedCode(draft: Draft, from: string, to: string): void {
  // A tool this plan moves in (`agent/tools/weather.ts` → `tools/weather/index.ts`) keeps its handler beside it.
  if (['ts', 'mts', 'js', 'mjs'].some((ext) => !draft.isFree(`${from}/index.${ext}`))) return;
  const files = filesBelow(draft.tree, from);
  const code = files.filter((f) => isCodeFile(f.slice(f.lastIndexOf('/') + 1)));
  if (code.length === 0 || !files.every((f) => draft.isUntouched(f))) return;
  if (code.some((f) => isToolModule(f, draft.tree.read(f)))) return;
  draft.accept({
    moves: files.map((file) => ({ from: file, to: to + file.slice(from.length) })),
    creates: [],
    removes: [],
    why: `${from}/ holds no tool (no index file, no .tool.md, no default-exported defineAgentTool): shared code moves to ${to}/`,
    at: { file: code[0]!, line: 1, column: 1 },
  });
}

export function migrateTools(draft: Draft, pluginDir: string): void {
  migrateToolsFolder(draft, pluginDir, 'agent/tools');
  migrateToolsFolder(draft, pluginDir, 'tools');
}
