/**
 * `zhin-gen new`: where a capability goes for its flags, the qualifiedName it will get, and the
 * files to write. Names are checked with the rules of runtime/contract/names.ts and qualifiedNames built
 * with the same builders the compiler uses, so what `new` prints is
 * what `inspect` will list. Pure: the caller says which files exist and which plugins there are.
 */
import {
  agentQualifiedName,
  promptSectionId,
  providerSafeProblem,
  reservedToolName,
  segmentNameProblem,
  skillNameProblem,
  skillQualifiedName,
  toolLocalNameProblem,
  toolQualifiedName,
  type NameProblem,
} from '@zhin-gen/runtime/names';
import type { ToolPlacement } from '@zhin-gen/runtime';
import type { Enclosure } from '../model.js';
import {
  agentFiles,
  agentsMdFile,
  defaultAgent,
  defaultSection,
  defaultSkill,
  defaultTool,
  sectionFile,
  skillFile,
  titleOf,
  toolFile,
} from './capabilities.js';
import { isIgnoredEntry } from '../scan/ignore.js';
import type { ScaffoldFile } from './types.js';

export const NEW_KINDS = ['tool', 'skill', 'agent', 'section'] as const;
export type NewKind = (typeof NEW_KINDS)[number];

export interface NewRequest {
  readonly kind: NewKind;
  readonly name: string;
  readonly agent?: string;
  readonly skill?: string;
  /** Owner path of a child plugin: `maps`, `maps/cn`. */
  readonly plugin?: string;
}

/** What the placement needs to know about the tree on disk. */
export interface TreeView {
  /** Whether a path (relative to the root) exists. */
  exists(path: string): boolean;
  /** Plugin directories by owner path (`''` → `''`), as the compiler found them. */
  readonly pluginDirs: ReadonlyMap<string, string>;
}

export interface NewPlan {
  readonly kind: NewKind;
  /** `plugin`/`agent`/`skill`/`agent-skill` for tools; `skill`/`agent-skill` for skills. */
  readonly placement: ToolPlacement | 'agent' | 'section';
  readonly owner: string;
  /** The capability directory, relative to the root. */
  readonly dir: string;
  /** The qualifiedName (a prompt section: its id, `owner:name`, as inspect lists it). */
  readonly qualifiedName: string;
  readonly files: readonly ScaffoldFile[];
}

/** A usage problem (exit 64) or a conflict with the tree (exit 1). */
export interface NewProblem {
  readonly kind: 'usage' | 'conflict';
  readonly message: string;
}

const usage = (message: string): NewProblem => ({ kind: 'usage', message });
const conflict = (message: string): NewProblem => ({ kind: 'conflict', message });

function nameProblem(what: string, name: string, problem: NameProblem | undefined): NewProblem | undefined {
  if (problem === undefined && isIgnoredEntry(name))
    // Valid as a name, but the scan leaves such an entry out (vim's `4913` write probe, `x~`, `x.tmp`):
    // the capability would be written and never compiled.
    return usage(
      `${what} "${name}" is a name the scan ignores as an editor's leftover (docs/cli.md#watch); pick another`,
    );
  return problem === undefined ? undefined : usage(`${what} "${name}" ${problem.message}`);
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** The directory of a child plugin: a known one, else `plugins/<key>` below its parent. */
function pluginDir(owner: string, tree: TreeView): string {
  const known = tree.pluginDirs.get(owner);
  if (known !== undefined) return known;
  const cut = owner.lastIndexOf('/');
  const parent = cut < 0 ? '' : owner.slice(0, cut);
  return join(join(pluginDir(parent, tree), 'plugins'), owner.slice(cut + 1));
}

/** Flags that do not apply to a kind. */
function flagProblem(request: NewRequest): NewProblem | undefined {
  const { kind } = request;
  if (request.skill !== undefined && kind !== 'tool')
    return usage(`--skill applies to new tool only (a ${kind} cannot live inside a skill)`);
  if (request.agent !== undefined && (kind === 'agent' || kind === 'section')) {
    return usage(
      kind === 'agent'
        ? '--agent does not apply to new agent (agents do not nest)'
        : '--agent does not apply to new section (prompt sections belong to a plugin)',
    );
  }
  return undefined;
}

export function planNew(request: NewRequest, tree: TreeView): NewPlan | NewProblem {
  const flags = flagProblem(request);
  if (flags) return flags;
  const owner = request.plugin ?? '';
  if (request.plugin !== undefined) {
    for (const segment of request.plugin.split('/')) {
      const problem = nameProblem('--plugin segment', segment, segmentNameProblem(segment));
      if (problem) return problem;
    }
  }
  const { name, agent, skill } = request;
  const localProblem =
    request.kind === 'tool'
      ? nameProblem('tool name', name, toolLocalNameProblem(name))
      : nameProblem(
          `${request.kind} name`,
          name,
          request.kind === 'skill' ? skillNameProblem(name) : segmentNameProblem(name),
        );
  if (localProblem) return localProblem;
  for (const [flag, value] of [
    ['--agent', agent],
    ['--skill', skill],
  ] as const) {
    if (value === undefined) continue;
    const problem = nameProblem(flag, value, flag === '--skill' ? skillNameProblem(value) : segmentNameProblem(value));
    if (problem) return problem;
  }

  const base = pluginDir(owner, tree);
  if (base.split('/').includes('node_modules'))
    return conflict(`plugin "${owner}" is an installed package (${base}); add capabilities to its sources instead`);
  // The scope a tool or skill lives in: the agent's directory, then the skill's.
  const agentDir = agent === undefined ? undefined : join(base, `agents/${agent}`);
  if (agentDir !== undefined && !tree.exists(`${agentDir}/agent.json`)) {
    return conflict(
      `agent "${agent}" does not exist (no ${agentDir}/agent.json); create it first: zhin-gen new agent ${agent}${owner ? ` --plugin ${owner}` : ''}`,
    );
  }
  const skillDir = skill === undefined ? undefined : join(agentDir ?? base, `skills/${skill}`);
  if (skillDir !== undefined && !tree.exists(`${skillDir}/SKILL.md`)) {
    return conflict(
      `skill "${skill}" does not exist (no ${skillDir}/SKILL.md); create it first: zhin-gen new skill ${skill}${agent ? ` --agent ${agent}` : ''}${owner ? ` --plugin ${owner}` : ''}`,
    );
  }

  const planned = place(request, owner, base, agentDir, skillDir);
  const qualifiedProblem =
    request.kind === 'section'
      ? undefined
      : nameProblem('qualifiedName', planned.qualifiedName, providerSafeProblem(planned.qualifiedName));
  if (qualifiedProblem) return qualifiedProblem;
  const reserved = request.kind === 'tool' ? reservedToolName(planned.qualifiedName) : undefined;
  if (reserved !== undefined)
    return usage(
      `tool "${planned.qualifiedName}" would take the reserved name "${reserved}" (the runtime owns discover, load_tool, load_skill, ask_user and spawn_task)`,
    );
  if (tree.exists(planned.dir)) return conflict(`${planned.dir} already exists; nothing was written`);
  // A plugin with a sub-agent needs its AGENTS.md (ZG4016): the agent's conventions.md extends it.
  const agentsMd = join(base, 'AGENTS.md');
  if (planned.kind === 'agent' && !tree.exists(agentsMd)) {
    const title = owner === '' ? 'Main agent' : titleOf(owner.split('/').pop()!);
    return {
      ...planned,
      files: [
        ...planned.files,
        agentsMdFile(
          base,
          title,
          'Say here how the main agent of this plugin works: tone, rules, which tools to prefer.',
        ),
      ],
    };
  }
  return planned;
}

function place(
  request: NewRequest,
  owner: string,
  base: string,
  agentDir: string | undefined,
  skillDir: string | undefined,
): NewPlan {
  const { name, agent, skill } = request;
  switch (request.kind) {
    case 'tool': {
      const placement: ToolPlacement =
        skill !== undefined
          ? agent !== undefined
            ? 'agent-skill'
            : 'skill'
          : agent !== undefined
            ? 'agent'
            : 'plugin';
      const enclosure: Enclosure = {
        owner,
        placement,
        ...(agent !== undefined ? { agent } : {}),
        ...(skill !== undefined ? { skill } : {}),
      };
      const dir = join(skillDir ?? agentDir ?? base, `tools/${name}`);
      return {
        kind: 'tool',
        placement,
        owner,
        dir,
        qualifiedName: toolQualifiedName(enclosure, name),
        files: [toolFile(dir, defaultTool(name))],
      };
    }
    case 'skill': {
      const dir = join(agentDir ?? base, `skills/${name}`);
      const qualifiedName = skillQualifiedName(owner, name, agent);
      return {
        kind: 'skill',
        placement: agent !== undefined ? 'agent-skill' : 'skill',
        owner,
        dir,
        qualifiedName,
        files: [skillFile(dir, name, defaultSkill(name, qualifiedName))],
      };
    }
    case 'agent': {
      const dir = join(base, `agents/${name}`);
      return {
        kind: 'agent',
        placement: 'agent',
        owner,
        dir,
        qualifiedName: agentQualifiedName(owner, name),
        files: agentFiles(dir, name, defaultAgent(name)),
      };
    }
    case 'section': {
      const dir = join(base, `prompt-sections/${name}`);
      return {
        kind: 'section',
        placement: 'section',
        owner,
        dir,
        qualifiedName: promptSectionId({ owner, name }),
        files: [sectionFile(dir, defaultSection(name))],
      };
    }
  }
}
