/**
 * zhin.js's earlier authoring layout, recognised by path: a plugin-level `agent/` folder
 * (`tools/<x>.ts`, `skills/<x>.md`, `agent.ts`, `prompt-sections/<x>.ts`), flat files in the
 * convention folders (`tools/<x>.ts`, `skills/<x>.md`, `agents/<x>.agent.md`), `<x>.tool.md`
 * tools and `agents/<x>/agent.ts` + `instructions.md` agents. Each construct gets one located
 * diagnostic that names it and points to `zhin-gen migrate` or, for hooks and skills written in
 * code (`agent/hooks/<x>.ts`, `agent/skills/<x>.ts`), says to rewrite them (docs/authoring.md "Coming from the
 * earlier zhin.js layout"): a capability the author wrote is never dropped without a word.
 * Pure functions of paths and directory listings, like the rest of the layout stage.
 */
import { toolLocalNameProblem } from '@zhin-gen/runtime/names';
import { diag, type Diagnostic } from '../diagnostics.js';

/** The earlier layout's plugin-level folder; scan/walk.ts lists it only so it can be reported here. */
export const EARLIER_AGENT_FOLDER = 'agent';

const CODE_FILE = /^(.+)\.(ts|mts|js|mjs)$/;
const DECLARATION = /\.d\.(m|c)?ts$/;
const AGENT_MODULES = ['agent.ts', 'agent.mts', 'agent.js', 'agent.mjs'] as const;
const MIGRATE = 'run `zhin-gen migrate` to convert it';

/**
 * What migrate does with the tool's name: kept, or (a name zhin-gen does not accept, `$weather`)
 * changed to the nearest valid one, which migrate reports with every reference it rewrites.
 */
function keptName(tool: string): string {
  return toolLocalNameProblem(tool) === undefined
    ? 'same tool name'
    : `"${tool}" is no valid tool name: migrate renames it to the nearest valid one and reports it`;
}

function codeName(file: string): string | undefined {
  if (DECLARATION.test(file)) return undefined;
  return CODE_FILE.exec(file)?.[1];
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/**
 * A file inside a plugin's `agent/` folder. `rest` are the path segments below the plugin,
 * starting with `agent`. Files inside a construct's own directory (`agent/tools/<x>/helper.ts`)
 * belong to that construct and are reported with its entry only.
 */
export function earlierAgentFolderFile(
  pluginDir: string,
  rest: readonly string[],
  path: string,
  others?: EarlierFolderFiles,
): Diagnostic | undefined {
  const [, folder, name, inner] = rest;
  const at = { file: path };
  const target = (where: string): string => join(pluginDir, where);
  if (rest.length === 2 && folder && (AGENT_MODULES as readonly string[]).includes(folder)) {
    return diag('ZG1052', {
      ...at,
      message: `"${path}" is an agent module of zhin.js's earlier layout (plugin-level agent/ folder), which zhin-gen does not read; ${MIGRATE} (main agent → ${target('AGENTS.md')}, sub-agents → ${target('agents/<name>/')})`,
    });
  }
  if (folder === 'tools' && name !== undefined) {
    if (name.endsWith('.tool.md') && rest.length === 3) return markdownTool(path, name.slice(0, -'.tool.md'.length));
    if (rest.length === 4 && inner?.endsWith('.tool.md')) return markdownTool(path, name);
    const tool =
      rest.length === 3
        ? codeName(name)
        : inner !== undefined && /^index\.(ts|mts|js|mjs)$/.test(inner)
          ? name
          : undefined;
    if (tool !== undefined && (rest.length === 3 || rest.length === 4)) {
      return diag('ZG1050', {
        ...at,
        message: `"${path}" is tool "${tool}" in zhin.js's earlier agent/ folder, which zhin-gen does not read; ${MIGRATE} (→ ${target(`tools/${tool}/index.ts`)}, ${keptName(tool)})`,
      });
    }
    if (rest.length > 3) return undefined;
  }
  if (folder === 'hooks' && name !== undefined) {
    const hook = earlierHookName(rest);
    if (hook !== undefined) {
      return diag('ZG1063', {
        ...at,
        message: `"${path}" is hook "${hook}" in zhin.js's earlier agent/ folder, which zhin-gen does not read; write it as ${target(`hooks/${hook}/index.ts`)} with defineAgentHook (migrate cannot convert a hook)`,
      });
    }
    if (rest.length > 3) return undefined;
  }
  if (folder === 'skills' && name !== undefined) {
    const coded = earlierCodeSkillName(rest);
    if (coded !== undefined) {
      return diag('ZG1064', {
        ...at,
        message: `"${path}" is skill "${coded}" written in code (defineSkill) in zhin.js's earlier agent/ folder, which zhin-gen does not read; write it as ${target(`skills/${coded}/SKILL.md`)} (migrate cannot convert a skill written in code)`,
      });
    }
    const skill =
      rest.length === 3 && name.endsWith('.md') ? name.slice(0, -3) : inner === 'SKILL.md' ? name : undefined;
    if (skill !== undefined && (rest.length === 3 || rest.length === 4)) {
      return diag('ZG1051', {
        ...at,
        message: `"${path}" is skill "${skill}" in zhin.js's earlier agent/ folder, which zhin-gen does not read; ${MIGRATE} (→ ${target(`skills/${skill}/SKILL.md`)})`,
      });
    }
    if (rest.length > 3) return undefined;
  }
  if (folder === 'prompt-sections' && name !== undefined) {
    const section =
      rest.length === 3
        ? codeName(name)
        : inner !== undefined && /^index\.(ts|mts|js|mjs)$/.test(inner)
          ? name
          : undefined;
    if (section !== undefined && (rest.length === 3 || rest.length === 4)) {
      return diag('ZG1053', {
        ...at,
        message: `"${path}" is prompt section "${section}" in zhin.js's earlier agent/ folder, which zhin-gen does not read; ${MIGRATE} (→ ${target(`prompt-sections/${section}/index.ts`)})`,
      });
    }
    if (rest.length > 3) return undefined;
  }
  others?.note(pluginDir, path);
  return undefined;
}

/**
 * The hook an `agent/hooks/` path of the earlier layout is (`rest` from `agent` on:
 * `agent/hooks/<x>.ts` or `agent/hooks/<x>/index.ts`), if it is one. Shared with migrate, which
 * leaves such a file where it is (a hook's API changed: it is rewritten by hand).
 */
export function earlierHookName(rest: readonly string[]): string | undefined {
  const [, folder, name, inner] = rest;
  if (folder !== 'hooks' || name === undefined) return undefined;
  if (rest.length === 3) return codeName(name);
  return rest.length === 4 && inner !== undefined && /^index\.(ts|mts|js|mjs)$/.test(inner) ? name : undefined;
}

/** The skill an `agent/skills/<x>.ts` of the earlier layout defines in code (`defineSkill`), if it is one. */
export function earlierCodeSkillName(rest: readonly string[]): string | undefined {
  const [, folder, name] = rest;
  return folder === 'skills' && name !== undefined && rest.length === 3 ? codeName(name) : undefined;
}

/**
 * The files of `agent/` folders that are no construct (helpers, notes): one ZG1054 per folder
 * naming them, not one per file, since a folder of helpers is one thing to clean up.
 */
export class EarlierFolderFiles {
  readonly #byPlugin = new Map<string, string[]>();

  note(pluginDir: string, path: string): void {
    const list = this.#byPlugin.get(pluginDir);
    if (list) list.push(path);
    else this.#byPlugin.set(pluginDir, [path]);
  }

  diagnostics(): Diagnostic[] {
    return [...this.#byPlugin].map(([pluginDir, files]) => {
      const folder = join(pluginDir, EARLIER_AGENT_FOLDER);
      const shown = files
        .slice(0, 5)
        .map((f) => `"${f}"`)
        .join(', ');
      const more = files.length > 5 ? ` and ${files.length - 5} more` : '';
      const what = files.length === 1 ? 'a file that is' : `${files.length} files that are`;
      return diag('ZG1054', {
        file: files[0]!,
        message: `${folder}/ (zhin.js's earlier plugin-level folder, which zhin-gen does not read) holds ${what} no tool, skill, hook, agent or prompt section: ${shown}${more}`,
      });
    });
  }
}

function markdownTool(path: string, name: string): Diagnostic {
  return diag('ZG1056', {
    file: path,
    // Named by the file only when its front matter names none (scan reads no file): migrate reads it.
    message: `"${path}" is a markdown tool (<name>.tool.md + handler.ts) of zhin.js's earlier layout, tool "${name}" unless its front matter \`name\` says otherwise; zhin-gen reads tools from index.ts with defineAgentTool(...); ${MIGRATE}`,
  });
}

/**
 * A file directly inside a convention folder (`folder` is `tools`, `skills`, …; `folderDir` its
 * path). Returns the earlier-layout diagnostic for it, or undefined for a plain stray file.
 */
export function earlierFlatFile(path: string, folder: string, folderDir: string): Diagnostic | undefined {
  const file = path.slice(path.lastIndexOf('/') + 1);
  if (file.endsWith('.tool.md')) return markdownTool(path, file.slice(0, -'.tool.md'.length));
  const code = codeName(file);
  if (folder === 'tools' && code !== undefined) {
    return diag('ZG1055', {
      file: path,
      message: `"${path}" is a flat file in ${folderDir}/ (zhin.js's earlier layout): a tool "${code}" there is read from ${folderDir}/${code}/index.ts, shared code without a default-exported tool belongs outside ${folderDir}/ (migrate moves it to src/${folder}/); ${MIGRATE} (${keptName(code)})`,
    });
  }
  if (folder === 'prompt-sections' && code !== undefined) {
    return diag('ZG1053', {
      file: path,
      message: `"${path}" is prompt section "${code}" as a flat file (zhin.js's earlier layout); zhin-gen reads ${folderDir}/${code}/index.ts; ${MIGRATE}`,
    });
  }
  if (folder === 'agents' && file.endsWith('.agent.md')) {
    const agent = file.slice(0, -'.agent.md'.length);
    return diag('ZG1057', {
      file: path,
      message: `"${path}" is agent "${agent}" as a markdown file (zhin.js's earlier layout); zhin-gen reads ${folderDir}/${agent}/agent.json with system.md, boundaries.md and conventions.md; ${MIGRATE}`,
    });
  }
  if (folder === 'skills' && file.endsWith('.md') && file !== 'README.md') {
    const skill = file.slice(0, -3);
    return diag('ZG1059', {
      file: path,
      message: `"${path}" is skill "${skill}" as a flat file (zhin.js's earlier layout); zhin-gen reads ${folderDir}/${skill}/SKILL.md; ${MIGRATE}`,
    });
  }
  return undefined;
}

/** A tool directory without index.*: the earlier `<name>.tool.md` + `handler.ts` form, if it is one. */
export function earlierToolDirectory(dir: string, files: readonly string[]): Diagnostic | undefined {
  const markdown = files.find((f) => f.endsWith('.tool.md') && f.lastIndexOf('/') === dir.length);
  if (!markdown) return undefined;
  const name = markdown.slice(dir.length + 1, -'.tool.md'.length);
  return markdownTool(markdown, name);
}

/**
 * An agent directory in the earlier form (`agent.ts` and/or `instructions.md`, no agent.json):
 * one diagnostic for the agent instead of one per missing file.
 */
export function earlierAgentDirectory(
  dir: string,
  entries: readonly { readonly name: string; readonly isDirectory: boolean }[],
): Diagnostic | undefined {
  const names = new Set(entries.filter((e) => !e.isDirectory).map((e) => e.name));
  if (names.has('agent.json')) return undefined;
  const module = AGENT_MODULES.find((m) => names.has(m));
  const instructions = names.has('instructions.md');
  if (!module && !instructions) return undefined;
  const agent = dir.slice(dir.lastIndexOf('/') + 1);
  const found = [module, instructions ? 'instructions.md' : undefined].filter(Boolean).join(' + ');
  return diag('ZG1058', {
    file: join(dir, module ?? 'instructions.md'),
    message: `agent "${agent}" is written as ${found} (zhin.js's earlier layout); zhin-gen reads agent.json, system.md, boundaries.md and conventions.md in ${dir}/; ${MIGRATE}`,
  });
}
