/**
 * `<x>.tool.md` + handler tools: the front matter (description, `parameters`, keywords, tags, …)
 * becomes a `defineAgentTool` in `tools/<name>/index.ts` whose `execute` calls the handler
 * module, which moves beside it. `parameters` become a JSON Schema literal. The `.tool.md` is
 * deleted only when everything in it was carried over; otherwise it stays in the tool directory
 * (a helper file there) and what was not carried is reported.
 */
import type { Draft } from './draft.js';
import type { SourceTree } from './types.js';
import { approvalMode, APPROVAL_VALUES } from './approval.js';
import { readFrontMatter } from './markdown.js';
import { directoryName, ownerOf, toolMdName, toolNameTaken } from './names.js';
import { RUNTIME_MODULE } from './runtime-import.js';
import { holdsProtoKey, lineCommentText, stringLiteral } from './source.js';
import { filesBelow, join2 } from './tree.js';
import { dirOf, normalize } from './imports.js';

/** Front matter keys carried into the definition as they are. */
const PASSED = ['keywords', 'tags', 'platforms', 'scopes', 'permissions', 'hidden'] as const;
const CONSUMED = new Set(['name', 'description', 'parameters', 'handler', 'approval', 'requiresApproval', ...PASSED]);
/** JSON Schema keywords a parameter may carry. */
const PARAMETER_KEYS = new Set([
  'type',
  'description',
  'enum',
  'default',
  'items',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'properties',
]);
const HANDLER_NAMES = ['handler.ts', 'handler.mts', 'handler.js', 'handler.mjs'];

function parametersSchema(
  parameters: unknown,
): { schema: Record<string, unknown>; dropped: string[] } | { error: string } {
  if (parameters === undefined || parameters === null)
    return { schema: { type: 'object', properties: {} }, dropped: [] };
  if (typeof parameters !== 'object' || Array.isArray(parameters)) return { error: '`parameters` is not a mapping' };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const dropped: string[] = [];
  for (const [name, spec] of Object.entries(parameters as Record<string, unknown>)) {
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
      return { error: `parameter "${name}" is not a mapping` };
    const property: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(spec as Record<string, unknown>)) {
      if (key === 'required') {
        if (value === true) required.push(name);
      } else if (PARAMETER_KEYS.has(key)) property[key] = value;
      else dropped.push(`parameters.${name}.${key}`);
    }
    properties[name] = property;
  }
  return { schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) }, dropped };
}

function indentJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

/** The handler module a `.tool.md` names (`handler:`, else `handler.ts` beside it), when it is in the tree. */
export function handlerOf(tree: SourceTree, path: string, data: Readonly<Record<string, unknown>>): string | undefined {
  const here = dirOf(path);
  const handlerPath =
    typeof data.handler === 'string'
      ? normalize(`${here}/${data.handler}`)
      : HANDLER_NAMES.map((n) => `${here}/${n}`).find((p) => tree.has(p));
  return handlerPath !== undefined && tree.has(handlerPath) ? handlerPath : undefined;
}

/**
 * The tools folder a `.tool.md` of an agent or a skill becomes a tool of (tools.ts): its
 * directory, the qualifiedName prefix of its tools, and which names its tools have or keep.
 */
export interface ToolsFolder {
  readonly dir: string;
  readonly owner: string;
  /** For the plan: what the tools are private to (`agent "reviewer"`). */
  readonly of: string;
  taken(candidate: string): boolean;
}

/**
 * Converts one `.tool.md`. `toolDir` is the directory the file is in when that directory is the
 * tool's (`tools/echo/echo.tool.md`); a flat file (`tools/greet.tool.md`) gets a new directory,
 * in the plugin's `tools/` or, for an agent's or a skill's, in `folder`. Returns whether it was
 * converted (else it is reported, and every file of it left where it was).
 */
export function convertToolMarkdown(
  draft: Draft,
  pluginDir: string,
  path: string,
  toolDir: string | undefined,
  folder?: ToolsFolder,
): boolean {
  const tree = draft.tree;
  const text = tree.read(path);
  const at = { file: path, line: 1, column: 1 };
  const parsed = readFrontMatter(text);
  const what = `tool ${path}`;
  if (!parsed.ok) {
    draft.note('ZG6001', { ...at, line: parsed.line }, `${what}: not converted, ${parsed.reason}`);
    return false;
  }
  const { data, keyLines, body } = parsed.value;
  if (holdsProtoKey(data)) {
    // In the generated object literal the key would set the prototype, not carry the value.
    draft.note(
      'ZG6001',
      at,
      `${what}: not converted, a key named \`__proto__\` cannot be carried into TypeScript; rename it`,
    );
    return false;
  }
  const earlierName = toolMdName(path, data);
  const lineOf = (key: string) => ({ ...at, line: keyLines[key] ?? 1 });
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    draft.note(
      'ZG6001',
      lineOf('description'),
      `${what}: not converted, it has no \`description\` (zhin-gen requires one)`,
    );
    return false;
  }
  const here = dirOf(path);
  const handlerPath = handlerOf(tree, path, data);
  if (!handlerPath) {
    draft.note(
      'ZG6001',
      lineOf('handler'),
      `${what}: not converted, ${typeof data.handler === 'string' ? `its handler ${data.handler} is not in the tree` : 'it has no handler module (handler.ts beside it)'}; a tool needs code for execute`,
    );
    return false;
  }
  const handlerText = tree.read(handlerPath);
  const handlerImport = /export\s+default\b/.test(handlerText)
    ? 'handler'
    : /export\s+(?:async\s+)?function\s+handler\b|export\s+const\s+handler\b/.test(handlerText)
      ? '{ handler }'
      : undefined;
  if (!handlerImport) {
    draft.note(
      'ZG6001',
      { file: handlerPath, line: 1, column: 1 },
      `${what}: not converted, ${handlerPath} exports neither a default function nor \`handler\``,
    );
    return false;
  }
  const schema = parametersSchema(data.parameters);
  if ('error' in schema) {
    draft.note('ZG6001', lineOf('parameters'), `${what}: not converted, ${schema.error}`);
    return false;
  }
  const approvalKey = 'requiresApproval' in data ? 'requiresApproval' : 'approval' in data ? 'approval' : undefined;
  const approval = approvalKey ? approvalMode(data[approvalKey]) : undefined;
  if (approvalKey && !approval) {
    draft.note(
      'ZG6001',
      lineOf(approvalKey),
      `${what}: not converted, \`${approvalKey}: ${JSON.stringify(data[approvalKey])}\` has no zhin-gen counterpart (${APPROVAL_VALUES}); a policy is never guessed`,
    );
    return false;
  }

  const owner = folder?.owner ?? ownerOf(pluginDir);
  const taken = folder ? (c: string) => folder.taken(c) : (c: string) => toolNameTaken(draft, pluginDir, c);
  const name = directoryName(draft, 'tool', owner, earlierName, at, taken);
  const target = folder ? `${folder.dir}/${name}` : join2(pluginDir, `tools/${name}`);
  const leftOver = [
    ...Object.keys(data).filter((k) => !CONSUMED.has(k)),
    ...schema.dropped,
    ...(body.trim() !== '' ? ['the Markdown body'] : []),
  ];
  // Files that travel: the tool's directory (when it has one) and the handler. Below the
  // directory they keep their place; a handler from elsewhere (`handler: ../src/x.ts`) keeps its name.
  const base = toolDir ?? here;
  const travelling = toolDir !== undefined ? filesBelow(tree, toolDir) : [];
  if (!travelling.includes(handlerPath)) travelling.push(handlerPath);
  const placed = (from: string): string =>
    `${target}/${from.startsWith(`${base}/`) ? from.slice(base.length + 1) : from.slice(from.lastIndexOf('/') + 1)}`;
  const moves = travelling
    .filter((from) => from !== path || leftOver.length > 0)
    .map((from) => ({ from, to: placed(from) }))
    .filter((m) => m.from !== m.to);
  const handlerFinal = placed(handlerPath);
  if (travelling.every((f) => f !== path) && leftOver.length > 0)
    moves.push({ from: path, to: `${target}/${path.slice(here.length + 1)}` });
  const handlerSpec = `./${handlerFinal.slice(target.length + 1).replace(/\.(m?)ts$/, '.$1js')}`;
  const fields = [
    `  description: ${JSON.stringify(description)},`,
    `  inputSchema: ${indentJson(schema.schema)},`,
    ...(approval ? [`  requiresApproval: '${approval}',`] : []),
    ...PASSED.filter((k) => data[k] !== undefined).map((k) => `  ${k}: ${indentJson(data[k])},`),
  ];
  const source = [
    `// Converted by zhin-gen migrate from ${lineCommentText(path.slice(path.lastIndexOf('/') + 1))} (the earlier zhin.js layout).`,
    `import { defineAgentTool } from '${RUNTIME_MODULE}';`,
    `import ${handlerImport} from ${stringLiteral(handlerSpec)};`,
    '',
    'const run = handler as (input: unknown, context: unknown) => unknown;',
    '',
    'export default defineAgentTool({',
    ...fields,
    '  async execute(input, context) {',
    '    return run(input, context);',
    '  },',
    '});',
    '',
  ].join('\n');
  const accepted = draft.accept({
    moves,
    creates: [{ path: `${target}/index.ts`, content: source }],
    removes: leftOver.length > 0 ? [] : [path],
    why: `${path} + ${handlerPath.slice(handlerPath.lastIndexOf('/') + 1)} become the tool directory ${target}/ (tool "${name}"${folder ? `, private to ${folder.of}` : ''})`,
    at,
  });
  if (accepted && leftOver.length > 0) {
    draft.note(
      'ZG6001',
      lineOf(leftOver[0]!.split('.')[0]!),
      `${what}: ${leftOver.join(', ')} not carried over (zhin-gen has no counterpart); the file stays in ${target}/ so nothing is lost`,
    );
  }
  return accepted;
}
