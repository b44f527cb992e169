/**
 * Emit: capability model → the generated TypeScript module (docs/architecture.md). A pure function; the same
 * model gives the same bytes on every machine (explicit comparator, LF, no timestamps). The
 * runtime value is plain data plus `() => import()` loaders; types come from `import type` of
 * each tool module (never inference over the whole manifest).
 */
import { createHash } from 'node:crypto';
import { hookId, promptSectionId } from '@zhin-gen/runtime/names';
import type { CapabilityModel, ToolModel } from '../model.js';
import { str, strList } from './literal.js';
import { byName, emitAgent, emitHook, emitPlugin, emitSection, emitSkill, list } from './item-literals.js';
import { emitTool, layoutBlocks, sameList, attachLoaders, type ToolText } from './tool-table.js';
import { type EntryDelta, isSharded } from './shards.js';
import { emitSharded } from './sharded-main.js';
import { union } from './items-module.js';
import { sortedTools, type TableDelta } from './sorted-tools.js';
import { importSpecifier, type ImportExtension } from './paths.js';
import {
  validatorExtension,
  validatorFileName,
  validatorsDirRel,
  validatorTable,
  type ValidatorTable,
} from './validator-table.js';
import { searchModule } from './search-module.js';
import { posix } from 'node:path';
import { EmitMemo } from './memo.js';
import { GENERATED_MARK } from './mark.js';

export { GENERATED_MARK } from './mark.js';

export interface EmitOptions {
  /** Absolute project root: the output may lie outside it (`../gen/caps.gen.ts`). */
  readonly root: string;
  /** Output path relative to the root (POSIX). */
  readonly outRel: string;
  readonly importExtension: ImportExtension;
  /** Module the generated types import from and augment. */
  readonly runtimeModule: string;
}

const HEADER = `${GENERATED_MARK} Do not edit: run \`zhin-gen generate\`, or keep the build plugin running.\n`;

/** The generated module as parts (see tool-table.ts) with a digest of their content. */
export interface ManifestParts {
  /** Joined in order, the module text. Long parts keep their identity between runs. */
  readonly parts: readonly string[];
  /** Equal digests, equal bytes. */
  readonly digest: string;
  /** The validator modules the manifest imports (written beside it: write/validators.ts). */
  readonly validators: ValidatorTable;
}

export function emitManifest(model: CapabilityModel, options: EmitOptions): string {
  return emitManifestParts(model, options).parts.join('');
}

/**
 * The generated module. `memos` (the compiler's own, see memo.ts) lets watch-mode runs reuse
 * unchanged pieces by identity; without it nothing is reused and the bytes are the same.
 */
export function emitManifestParts(
  model: CapabilityModel,
  options: EmitOptions,
  memos: EmitMemo = new EmitMemo(),
): ManifestParts {
  // Import specifiers by source: path.relative per tool per run adds up, and so did building a
  // composite key per tool. A new root, output path or extension starts over.
  const specifiers = memos.specifiers;
  if (
    specifiers.root !== options.root ||
    specifiers.outRel !== options.outRel ||
    specifiers.importExtension !== options.importExtension
  ) {
    memos.specifiers = {
      root: options.root,
      outRel: options.outRel,
      importExtension: options.importExtension,
      bySource: new Map(),
    };
    memos.folderSpecifiers = new Map();
  }
  const known = memos.specifiers.bySource;
  const spec = (source: string): string => {
    let value = known.get(source);
    if (value === undefined)
      known.set(source, (value = importSpecifier(options.root, options.outRel, source, options.importExtension)));
    return value;
  };
  const { tools, conditional, delta } = sortedTools(model.tools, memos);
  const skills = [...model.skills].sort(byName((s) => s.qualifiedName));
  const agents = [...model.agents].sort(byName((a) => a.qualifiedName));
  const sections = [...model.promptSections].sort(byName(promptSectionId));
  const hooks = [...model.hooks].sort(byName(hookId));
  const plugins = [...model.plugins].sort(byName((p) => p.owner));

  const { entries, entryDelta } = toolEntries(tools, delta, spec, memos);
  // Above the shard threshold the items live in a module of the folder (items-module.ts), so
  // their import specifiers are relative to the folder, not to the main module.
  const shards = isSharded(tools.length);
  const dirRel = validatorsDirRel(options.outRel);
  const inFolder = posix.join(dirRel, `shard${validatorExtension(options.outRel)}`);
  const folderSpecs = memos.folderSpecifiers;
  const folderSpec = (source: string): string => {
    let value = folderSpecs.get(source);
    if (value === undefined)
      folderSpecs.set(source, (value = importSpecifier(options.root, inFolder, source, options.importExtension)));
    return value;
  };
  const itemSpec = shards ? folderSpec : spec;
  const pluginsText = list(
    plugins.map((p) =>
      emitPlugin(
        p,
        conditional.filter((t) => t.owner === p.owner),
        p.entrySource ? itemSpec(p.entrySource) : undefined,
      ),
    ),
  );
  // An unchanged skill, agent, section or hook keeps its model object between watch-mode runs
  // (resolve/assemble.ts), so its text is reused; a skill's resolved tools and a hook's import
  // path can change without the object changing, so they are part of the memo.
  const memo = <T extends object>(model: T, extra: string, render: () => string): string => {
    const known = memos.itemTexts.get(model);
    if (known && known.extra === extra) return known.text;
    const text = render();
    memos.itemTexts.set(model, { extra, text });
    return text;
  };
  const skillTexts = skills.map((k) => memo(k, k.tools.join('\0'), () => emitSkill(k)));
  const agentTexts = agents.map((a) => memo(a, '', () => emitAgent(a)));
  const sectionTexts = sections.map((p) => {
    const spec = p.content === undefined ? itemSpec(p.source) : '';
    return memo(p, spec, () => emitSection(p, spec));
  });
  const hookTexts = hooks.map((h) => memo(h, itemSpec(h.source), () => emitHook(h, itemSpec(h.source))));
  // Host-provided tools the tree references (resolve/host-provided.ts): host.load checks them.
  const hostTools = model.hostTools ?? [];
  // Installed packages' shipped manifests (scan/shipped.ts), merged by the runtime at host.load.
  const packages = model.packages ?? [];
  const packageImports = packages
    .map((p, i) => `import { manifest as package${i} } from ${str(p.specifier)};\n`)
    .join('');
  const hostText = `${hostTools.length > 0 ? `\n  hostProvided: { tools: ${strList(hostTools)} },` : ''}${
    packages.length > 0
      ? `\n  packages: [${packages.map((p, i) => `\n    { owner: ${str(p.owner)}, name: ${str(p.name)}, manifest: package${i} },`).join('')}\n  ],`
      : ''
  }`;
  // The discover index beside the manifest (search-module.ts), named by what it indexes.
  const search = searchModule(tools, entries, skills, HEADER, memos);
  const searchText =
    search === undefined
      ? ''
      : search.property(itemSpec(posix.join(dirRel, validatorFileName(search.name, options.outRel))));
  const itemList = [
    ...skillTexts,
    '\0',
    ...agentTexts,
    '\0',
    ...sectionTexts,
    '\0',
    ...hookTexts,
    '\0',
    hostText,
    searchText,
  ];
  // Same item texts as last time (the same strings): the same block, the same string object.
  let lastItems = memos.lastItems;
  if (!lastItems || !sameList(lastItems.list, itemList)) {
    lastItems = memos.lastItems = {
      list: itemList,
      text: `  skills: ${list(skillTexts)},
  agents: ${list(agentTexts)},
  promptSections: ${list(sectionTexts)},
  hooks: ${list(hookTexts)},${hostText}${searchText}`,
    };
  }
  const rest = lastItems.text;
  if (shards) {
    return emitSharded({
      tools,
      entries,
      conditional,
      skills,
      agents,
      paths: {
        dirRel,
        spec: folderSpec,
        outRel: options.outRel,
        runtimeModule: options.runtimeModule,
        header: HEADER,
        context: `${options.root}\0${options.importExtension}`,
      },
      mainSpec: (name) => spec(posix.join(dirRel, validatorFileName(name, options.outRel))),
      head: `${HEADER}import type { CapabilityManifest, ManifestTool } from ${str(options.runtimeModule)};\n`,
      packageImports,
      pluginsText,
      rest,
      validators: validatorTable(
        tools,
        entries.map((e) => e.validator),
        options,
        memos,
      ),
      search,
      memos,
      delta: entryDelta,
    });
  }
  const layout = layoutBlocks(tools, entries, conditional, memos);
  // The digest of every emitted byte of data (tools through their memoised digests). It decides
  // "changed?" and is never written: a line that changed with every edit would make a committed
  // manifest conflict in every two pull requests (see docs/cli.md, "Committing the manifest").
  const dataHash = createHash('sha256')
    .update(pluginsText)
    .update(entries.map((e) => e.sha).join(''))
    .update(rest)
    .digest('hex');

  const head = `${HEADER}import type { CapabilityManifest, ManifestTool${layout.typeImports !== '' ? ', InputOf' : ''} } from ${str(options.runtimeModule)};
${packageImports}`;
  // The module around its large pieces, as parts: the memoised pieces (loader cases, tool lines,
  // name union, input map, item list) keep their string identity between watch-mode runs, so
  // the writer reuses their bytes by a pointer comparison instead of comparing or re-encoding
  // them, and the digest covers them through their own hashes (data hash, layout digest).
  // Generated validators (validator-table.ts): a manifest without any (every tool has a Zod
  // schema) is the text it always was.
  const validators = validatorTable(
    tools,
    entries.map((e) => e.validator),
    options,
    memos,
  );
  const withValidators = validators.keys.length > 0;
  const toolDataType = withValidators
    ? `(Omit<ManifestTool, 'load' | 'validator'> & { load?: ManifestTool['load']; validator?: string | ManifestTool['validator'] })[]`
    : `(Omit<ManifestTool, 'load'> & { load?: ManifestTool['load'] })[]`;
  const validatorParts = (cases: string): string[] =>
    withValidators
      ? [
          `
/**
 * Each generated input validator by key (the tool line's \`validator\`): one module of plain code
 * per distinct JSON Schema, imported on the tool's first validation.
 */
function loadValidator(key: string): ReturnType<NonNullable<ManifestTool['validator']>> {
  switch (key) {`,
          cases,
          `}
  throw new RangeError('zhin-gen manifest: no validator ' + key);
}
`,
        ]
      : [];
  const loaderParts = (cases: string, validatorCases: string): string[] => [
    `
/**
 * Each tool's module by table index: a literal import() per tool (bundlers split on them) inside
 * one function, which V8 compiles once instead of one closure per tool.
 */
function loadTool(index: number): ReturnType<ManifestTool['load']> {
  switch (index) {`,
    cases,
    `}
  throw new RangeError('zhin-gen manifest: no tool at index ' + index);
}
`,
    ...validatorParts(validatorCases),
    `
/** Tool metadata, one tool per line (parsed as JSON: fast to load), in the order of loadTool. */
const toolData: ${toolDataType} = JSON.parse('[`,
  ];
  const tailParts = (plugins: string, items: string, toolNames: string, inputLines: string): string[] => [
    `\\\n]');
${attachLoaders(withValidators)}

export const manifest: CapabilityManifest = {
  version: 1,
  plugins: ${plugins},
  tools: toolData as ManifestTool[],
`,
    items,
    `
};

export type ToolName = `,
    toolNames,
    `;

export type SkillName = ${union(skills.map((s) => s.qualifiedName))};

export type AgentName = ${union(agents.map((a) => a.qualifiedName))};

export interface ToolInputs {
`,
    inputLines,
    `}

declare module ${str(options.runtimeModule)} {
  interface CapabilityRegistry {
    toolInputs: ToolInputs;
  }
}
`,
  ];
  const parts: string[] = [head, layout.typeImports, ...loaderParts(layout.cases, validators.cases)];
  for (const [index, entry] of entries.entries()) parts.push(index === 0 ? entry.first : entry.next);
  parts.push(...tailParts(pluginsText, rest, layout.toolNames, layout.inputLines));
  // Tools, plugins and items through the data hash (the tools through their memoised digests),
  // the layout blocks through theirs, and only the small text around them as text: in watch mode
  // this digest is what decides "changed?", and hashing the whole module each edit cost ~1 ms.
  const digest = createHash('sha256');
  for (const piece of [
    head,
    layout.sha,
    validators.sha,
    ...loaderParts('', ''),
    dataHash,
    ...tailParts('', '', '', ''),
  ])
    digest.update(`${piece.length}:`).update(piece);
  return {
    parts,
    digest: digest.digest('hex'),
    validators: search === undefined ? validators : { ...validators, modules: [search] },
  };
}

/**
 * Each tool's line (tool-table.ts), in table order. When the table is the last emit's with a few
 * objects swapped in (`delta`) and the specifiers are the same, the last list is copied and only
 * the swapped positions are looked up: what `emitTool` would return for the others is the line
 * already there (it memoises by model object and specifier).
 */
function toolEntries(
  tools: readonly ToolModel[],
  delta: TableDelta | undefined,
  spec: (source: string) => string,
  memos: EmitMemo,
): { entries: readonly ToolText[]; entryDelta?: EntryDelta } {
  const last = memos.lastEntries;
  const bySource = memos.specifiers.bySource;
  if (delta && last && last.tools === delta.previous && last.bySource === bySource) {
    const previous = last.entries;
    let entries = previous;
    if (delta.changed.length > 0) {
      const copy = [...previous];
      for (const at of delta.changed) copy[at] = emitTool(tools[at]!, spec(tools[at]!.source), memos);
      entries = copy;
    }
    memos.lastEntries = { tools, entries, bySource };
    return { entries, entryDelta: { previous, changed: delta.changed } };
  }
  const entries = tools.map((t) => emitTool(t, spec(t.source), memos));
  memos.lastEntries = { tools, entries, bySource };
  return { entries };
}
