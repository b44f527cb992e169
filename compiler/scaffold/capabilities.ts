/**
 * Templates of the capability files: a tool, a skill, a sub-agent (its four files), a prompt
 * section and a plugin's AGENTS.md. `zhin-gen init` and `zhin-gen new` both use them, so a
 * scaffolded bot and a capability added later look alike. Every import names a package that is on
 * the registry (`@zhin-gen/runtime`, `zod`), so the files type-check under `tsc` and run under
 * plain Node, not only through the build plugin.
 */
import type { ScaffoldFile } from './types.js';

/** `get-weather` → `Get weather`. */
export function titleOf(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words === '' ? name : `${words[0]!.toUpperCase()}${words.slice(1)}`;
}

/** A string literal for generated TypeScript (single quotes, as the templates are written). */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export interface ToolTemplate {
  readonly description: string;
  /** Zod fields of the input object, one per line (`text: z.string().min(1)`). */
  readonly fields: readonly string[];
  /** The destructured input names of `execute`. */
  readonly params: readonly string[];
  /** The body of `execute`. */
  readonly body: string;
}

/** What `zhin-gen new tool <name>` writes: one string in, the same string out. */
export function defaultTool(name: string): ToolTemplate {
  return {
    description: `${titleOf(name)}: say here what the tool does and when to use it (the model reads this)`,
    fields: ["text: z.string().min(1).describe('What to work on')"],
    params: ['text'],
    body: 'return { text };',
  };
}

export function toolFile(dir: string, template: ToolTemplate): ScaffoldFile {
  return {
    path: `${dir}/index.ts`,
    content: `import { defineAgentTool } from '@zhin-gen/runtime';
import { z } from 'zod';

export default defineAgentTool({
  description: ${literal(template.description)},
  inputSchema: z.object({
${template.fields.map((field) => `    ${field},`).join('\n')}
  }),
  requiresApproval: 'never',
  async execute({ ${template.params.join(', ')} }) {
    ${template.body}
  },
});
`,
  };
}

export interface SkillTemplate {
  readonly description: string;
  readonly instructions: string;
}

export function defaultSkill(name: string, qualifiedName: string): SkillTemplate {
  return {
    description: `Say here when the model should load the ${name} skill (the model reads this before loading it).`,
    instructions: `Say here what the model should do after load_skill "${qualifiedName}": name the tools it should use\n(its own tools are under tools/ beside this file) and the order of the steps.`,
  };
}

export function skillFile(dir: string, name: string, template: SkillTemplate): ScaffoldFile {
  // The description is a YAML double-quoted scalar: safe for `:` and `#`, which plain scalars are not.
  return {
    path: `${dir}/SKILL.md`,
    content: `---
name: ${name}
description: ${JSON.stringify(template.description)}
---
# ${titleOf(name)}

${template.instructions}
`,
  };
}

export interface AgentTemplate {
  readonly description: string;
  readonly system: string;
  readonly boundaries: string;
  readonly conventions: string;
}

export function defaultAgent(name: string): AgentTemplate {
  return {
    description: `Say here what the ${name} agent does; the host selects it by name.`,
    system: `You are the ${name} agent. Say here who you are and what you do.`,
    boundaries: 'Say here what this agent must never do (for example: never change anything without asking).',
    conventions: "Say here how this agent works beyond the plugin's AGENTS.md (do not repeat its headings).",
  };
}

/** agent.json, system.md, boundaries.md, conventions.md: the four files every sub-agent needs. */
export function agentFiles(dir: string, name: string, template: AgentTemplate): ScaffoldFile[] {
  const title = titleOf(name);
  return [
    { path: `${dir}/agent.json`, content: `${JSON.stringify({ description: template.description }, null, 2)}\n` },
    { path: `${dir}/system.md`, content: `# ${title}\n\n${template.system}\n` },
    { path: `${dir}/boundaries.md`, content: `# ${title} boundaries\n\n${template.boundaries}\n` },
    // Headings must not restate AGENTS.md's (ZG4017): this one names the agent.
    { path: `${dir}/conventions.md`, content: `# ${title} conventions\n\n${template.conventions}\n` },
  ];
}

export interface SectionTemplate {
  readonly title: string;
  readonly content: string;
}

export function defaultSection(name: string): SectionTemplate {
  return {
    title: titleOf(name),
    content: `Say here what every turn should know about ${titleOf(name).toLowerCase()}.`,
  };
}

export function sectionFile(dir: string, template: SectionTemplate): ScaffoldFile {
  return {
    path: `${dir}/index.ts`,
    content: `import { defineAgentPromptSection } from '@zhin-gen/runtime';

export default defineAgentPromptSection({
  title: ${literal(template.title)},
  content: ${literal(template.content)},
  layer: 'context',
  order: 50,
  retention: 'preferred',
});
`,
  };
}

/** The main agent's instructions of a plugin (required once the plugin has a sub-agent). */
export function agentsMdFile(dir: string, title: string, body: string): ScaffoldFile {
  return { path: dir === '' ? 'AGENTS.md' : `${dir}/AGENTS.md`, content: `# ${title}\n\n${body}\n` };
}
