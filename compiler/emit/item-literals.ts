/**
 * The array literals of a manifest's items (skills, agents, prompt sections, hooks, plugins), one
 * pure function each: the main module of a small bot and items.ts of a sharded one print them alike.
 */
import { hookId, promptSectionId } from '@zhin-gen/runtime/names';
import { compareStrings } from '../diagnostics.js';
import type { AgentModel, HookModel, PluginModel, PromptSectionModel, SkillModel, ToolModel } from '../model.js';
import { str, strList } from './literal.js';
import { loaderCall } from './loader-call.js';
import { isTypedSource } from '../util/typed-source.js';

export function byName<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => compareStrings(key(a), key(b));
}

export function optional(name: string, value: string | number | undefined): string {
  if (value === undefined) return '';
  return `\n      ${name}: ${typeof value === 'number' ? String(value) : str(value)},`;
}

export function emitSkill(skill: SkillModel): string {
  return `    {
      qualifiedName: ${str(skill.qualifiedName)},
      name: ${str(skill.name)},
      owner: ${str(skill.owner)},${optional('agent', skill.agent)}
      description: ${str(skill.description)},
      tools: ${strList(skill.tools)},
      platforms: ${strList(skill.platforms)},
      scopes: ${strList(skill.scopes)},
      permissions: ${strList(skill.permissions)},
      keywords: ${strList(skill.keywords)},
      tags: ${strList(skill.tags)},
      always: ${skill.always},
      instructions: ${str(skill.instructions)},
      source: ${str(skill.source)},${optional('license', skill.license)}${optional('compatibility', skill.compatibility)}${metadataOf(skill)}${optional('allowedTools', skill.allowedTools)}
    },`;
}

/**
 * A skill's `metadata` as JSON parsed at import: any key stays an own property (`"__proto__": …`
 * in an object literal would set the prototype instead).
 */
function metadataOf(skill: SkillModel): string {
  return skill.metadata === undefined ? '' : `\n      metadata: JSON.parse(${str(JSON.stringify(skill.metadata))}),`;
}

export function emitAgent(agent: AgentModel): string {
  return `    {
      qualifiedName: ${str(agent.qualifiedName)},
      name: ${str(agent.name)},
      owner: ${str(agent.owner)},
      description: ${str(agent.description)},
      platforms: ${strList(agent.platforms.map((p) => p.name))},
      tools: ${strList(agent.declaredTools.map((t) => t.name))},${optional('model', agent.model)}${optional('maxSteps', agent.maxSteps)}
      system: ${str(agent.system)},
      boundaries: ${str(agent.boundaries)},
      conventions: ${str(agent.conventions)},
      workflows: ${strList(agent.workflows)},
      knowledge: ${strList(agent.knowledge)},
      source: ${str(agent.source)},
    },`;
}

/** `spec`: the section module's import specifier, for a content the module computes. */
export function emitSection(section: PromptSectionModel, spec: string): string {
  const content =
    section.content !== undefined
      ? `content: ${str(section.content)},`
      : `load: () => ${loaderCall(str(spec), isTypedSource(section.source))},`;
  return `    {
      id: ${str(promptSectionId(section))},
      name: ${str(section.name)},
      owner: ${str(section.owner)},
      title: ${str(section.title)},
      ${content}
      layer: ${str(section.layer)},
      order: ${section.order},
      retention: ${str(section.retention)},${optional('maxChars', section.maxChars)}
      profiles: ${strList(section.profiles)},
      platforms: ${strList(section.platforms)},
      source: ${str(section.source)},
    },`;
}

export function emitHook(hook: HookModel, spec: string): string {
  return `    {
      id: ${str(hookId(hook))},
      name: ${str(hook.name)},
      owner: ${str(hook.owner)},
      placement: ${str(hook.placement)},${optional('agent', hook.agent)}${optional('skill', hook.skill)}
      events: ${strList(hook.events)},
      source: ${str(hook.source)},
      load: () => ${loaderCall(str(spec), isTypedSource(hook.source))},
    },`;
}

export function emitPlugin(plugin: PluginModel, conditional: readonly ToolModel[], spec: string | undefined): string {
  const tools = conditional
    .map(
      (t) =>
        `\n        { qualifiedName: ${str(t.qualifiedName)}, localName: ${str(t.localName)}, source: ${str(t.source)} },`,
    )
    .join('');
  return `    {
      owner: ${str(plugin.owner)},
      dir: ${str(plugin.dir === '' ? '.' : plugin.dir)},${plugin.agentsMd ? `\n      agentsMd: ${str(plugin.agentsMd.text)},` : ''}${spec && plugin.entrySource ? `\n      entry: () => ${loaderCall(str(spec), isTypedSource(plugin.entrySource))},\n      entrySource: ${str(plugin.entrySource)},` : ''}
      conditionalTools: [${tools}${tools ? '\n      ' : ''}],
    },`;
}

export function list(items: readonly string[]): string {
  return items.length === 0 ? '[]' : `[\n${items.join('\n')}\n  ]`;
}
