/**
 * Prompt sections of the earlier layout: `agent/prompt-sections/<x>.ts` (and `<x>/index.ts`),
 * flat `prompt-sections/<x>.ts`, and sections written with the earlier fields anywhere. The
 * earlier `id` is the section's identity: it names the directory (and is dropped from the
 * definition, where zhin-gen has no such field); `priority` is `order` (both: larger first);
 * `truncatable: false` is `retention: 'required'` and `truncatable: true` is `'preferred'`.
 */
import type { Draft } from './draft.js';
import { directoryName, ownerOf } from './names.js';
import {
  applyEdits,
  defaultExportExpression,
  definitionObject,
  isCodeFile,
  lineColumn,
  Node,
  type ObjectLiteralExpression,
  parse,
  SECTION_HELPERS,
  stringValue,
  SyntaxKind,
  type TextEdit,
} from './source.js';
import { RUNTIME_MODULE } from './runtime-import.js';
import { childrenOf, filesBelow, join2 } from './tree.js';

const ENTRY = /^index\.(?:ts|mts|js|mjs)$/;

/**
 * The section definition of a module: `defineAgentPromptSection({...})`, or (`plain`) the bare
 * object literal the earlier layout also accepted as a default export.
 */
function sectionObject(path: string, text: string): { object: ObjectLiteralExpression; plain: boolean } | undefined {
  if (!/export\s+default|export\s*\{/.test(text)) return undefined;
  const found = definitionObject(defaultExportExpression(parse(path, text)));
  if (!found) return undefined;
  if (found.helper === undefined) return /\bcontent\s*:/.test(text) ? { object: found.object, plain: true } : undefined;
  return (SECTION_HELPERS as readonly string[]).includes(found.helper)
    ? { object: found.object, plain: false }
    : undefined;
}

/** The range of a property with its comma, the whole line when it is alone on it. */
function propertyRange(text: string, node: Node): { start: number; end: number } {
  let start = node.getStart();
  let end = node.getEnd();
  if (text[end] === ',') end++;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  if (
    /^[ \t]*$/.test(text.slice(lineStart, start)) &&
    /^[ \t]*$/.test(text.slice(end, lineEnd === -1 ? text.length : lineEnd))
  ) {
    start = lineStart;
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  } else {
    while (text[end] === ' ') end++;
  }
  return { start, end };
}

/** The earlier fields of a section definition → zhin-gen's. Returns the new text, or undefined (reported). */
function sectionEdits(draft: Draft, path: string, text: string, name: string): string | undefined {
  const found = sectionObject(path, text);
  if (!found) return text;
  const { object } = found;
  const edits: TextEdit[] = [];
  const fail = (node: Node, why: string): undefined => {
    draft.note(
      'ZG6001',
      { file: path, ...lineColumn(text, node.getStart()) },
      `prompt section ${path}: not converted, ${why}`,
    );
    return undefined;
  };
  const id = object.getProperty('id');
  const hasTitle = object.getProperty('title') !== undefined;
  // zhin-gen renders a section under its title (`## <title>`); an earlier one without a title gets its name.
  if (id && !hasTitle) edits.push({ start: id.getStart(), end: id.getEnd(), text: `title: '${name}'` });
  else if (id) edits.push({ ...propertyRange(text, id), text: '' });
  const priority = object.getProperty('priority');
  if (priority) {
    if (object.getProperty('order')) return fail(priority, 'both `priority` and `order` are given');
    if (!Node.isPropertyAssignment(priority)) return fail(priority, '`priority` is not written `priority: <number>`');
    const key = priority.getNameNode();
    edits.push({ start: key.getStart(), end: key.getEnd(), text: 'order' });
  }
  const truncatable = object.getProperty('truncatable');
  if (truncatable) {
    if (object.getProperty('retention')) return fail(truncatable, 'both `truncatable` and `retention` are given');
    const value = Node.isPropertyAssignment(truncatable) ? truncatable.getInitializer()?.getKind() : undefined;
    if (value !== SyntaxKind.TrueKeyword && value !== SyntaxKind.FalseKeyword)
      return fail(truncatable, '`truncatable` is not `true` or `false`');
    edits.push({
      start: truncatable.getStart(),
      end: truncatable.getEnd(),
      text: `retention: '${value === SyntaxKind.TrueKeyword ? 'preferred' : 'required'}'`,
    });
  }
  const first = object.getProperties()[0];
  if (!hasTitle && !id && first) {
    const lineStart = text.lastIndexOf('\n', first.getStart() - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const inline = lineStart + indent.length !== first.getStart();
    edits.push({
      start: first.getStart(),
      end: first.getStart(),
      text: `title: '${name}',${inline ? ' ' : `\n${indent}`}`,
    });
  }
  if (!hasTitle) {
    draft.note(
      'ZG6002',
      { file: path, ...lineColumn(text, object.getStart()) },
      `prompt section ${path} had no \`title\`: it gets "${name}", shown as its heading`,
    );
  }
  if (found.plain) {
    edits.push({ start: object.getStart(), end: object.getStart(), text: 'defineAgentPromptSection(' });
    edits.push({ start: object.getEnd(), end: object.getEnd(), text: ')' });
    edits.push({ start: 0, end: 0, text: `import { defineAgentPromptSection } from '${RUNTIME_MODULE}';\n\n` });
  }
  return applyEdits(text, edits);
}

function idOf(path: string, text: string): { id?: string; line: number } {
  const property = sectionObject(path, text)?.object.getProperty('id');
  if (!property || !Node.isPropertyAssignment(property)) return { line: 1 };
  return { id: stringValue(property.getInitializer()), line: lineColumn(text, property.getStart()).line };
}

function migrateOne(
  draft: Draft,
  pluginDir: string,
  entry: string,
  files: readonly string[],
  baseDir: string | undefined,
  fallbackName: string,
): void {
  const text = draft.tree.read(entry);
  const { id, line } = idOf(entry, text);
  const name = directoryName(draft, 'prompt-section', ownerOf(pluginDir), id ?? fallbackName, {
    file: entry,
    line,
    column: 1,
  });
  const converted = sectionEdits(draft, entry, text, name);
  if (converted === undefined) return;
  const target = join2(pluginDir, `prompt-sections/${name}`);
  const entryName = entry.slice(entry.lastIndexOf('/') + 1);
  const entryTo =
    baseDir !== undefined
      ? `${target}/${entry.slice(baseDir.length + 1)}`
      : `${target}/index${entryName.slice(entryName.lastIndexOf('.'))}`;
  const moves = [
    ...files.filter((f) => f !== entry).map((from) => ({ from, to: `${target}/${from.slice(baseDir!.length + 1)}` })),
    { from: entry, to: entryTo },
  ].filter((m) => m.from !== m.to);
  const accepted =
    moves.length === 0 ||
    draft.accept({
      moves,
      creates: [],
      removes: [],
      why: `prompt section ${entry} becomes ${target}/ (section "${name}"${id !== undefined ? ', named by its earlier `id`' : ''})`,
      at: { file: entry, line: 1, column: 1 },
    });
  if (accepted && converted !== text)
    draft.edit(
      entryTo,
      converted,
      'earlier section fields: `id` → directory name, `priority` → `order`, `truncatable` → `retention`',
    );
}

export function migrateSections(draft: Draft, pluginDir: string): void {
  const tree = draft.tree;
  for (const folder of ['agent/prompt-sections', 'prompt-sections']) {
    const dir = join2(pluginDir, folder);
    const { files, dirs } = childrenOf(tree, dir);
    for (const file of files) {
      const path = `${dir}/${file}`;
      if (!isCodeFile(file) || !draft.isUntouched(path)) continue;
      if (sectionObject(path, tree.read(path))) {
        migrateOne(draft, pluginDir, path, [path], undefined, file.slice(0, file.lastIndexOf('.')));
      } else if (folder === 'agent/prompt-sections' || !tree.read(path).includes('defineAgentPromptSection')) {
        const to = join2(pluginDir, `src/${folder}/${file}`);
        draft.accept({
          moves: [{ from: path, to }],
          creates: [],
          removes: [],
          why: `${path} is not a prompt section (no default-exported defineAgentPromptSection): shared code moves to ${to.slice(0, to.lastIndexOf('/'))}/`,
          at: { file: path, line: 1, column: 1 },
        });
      }
    }
    for (const sub of dirs) {
      const subDir = `${dir}/${sub}`;
      const entry = childrenOf(tree, subDir).files.find((f) => ENTRY.test(f));
      if (!entry) continue;
      const entryPath = `${subDir}/${entry}`;
      const text = tree.read(entryPath);
      // A zhin-gen section without the earlier fields is left exactly as it is.
      if (folder === 'prompt-sections' && !/\b(?:id|priority|truncatable)\s*:/.test(text)) continue;
      migrateOne(draft, pluginDir, entryPath, filesBelow(tree, subDir), subDir, sub);
    }
  }
}
