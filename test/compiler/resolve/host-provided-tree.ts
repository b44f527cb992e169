/**
 * A bot whose skill and agent reference tools the host provides at run time (a memory
 * framework, a shell tool, an adapter's moderation tools) besides its own `echo`, shared by the
 * compiler and runtime tests of host-provided capabilities.
 */
export const HOST_CONFIG = {
  hostProvided: { tools: ['memory_*', 'bash', '*_kick_member'], skills: ['web-search'] },
};

export const HOST_TREE: Record<string, string> = {
  'AGENTS.md': '# Group helper\n\nKeep answers short.\n',
  'tools/echo/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';

export default defineAgentTool({ description: 'Echo a message back', execute: (input) => input });
`,
  'skills/memory/SKILL.md': `---
name: memory
description: Remember facts about the group and recall them later
tools: [memory_search, memory_upsert, bash, ask_user, echo]
---
Search memory before answering; store new facts with memory_upsert.
`,
  'agents/moderator/agent.json': `{
  "description": "Keeps the group tidy",
  "tools": ["icqq_kick_member", "echo"]
}
`,
  'agents/moderator/system.md': 'You moderate the group.\n',
  'agents/moderator/boundaries.md': 'Never kick an admin.\n',
  'agents/moderator/conventions.md': '# Moderation\n\nWarn once before kicking.\n',
};

/** The host-provided names the tree references, as the manifest records them (sorted). */
export const REFERENCED = ['ask_user', 'bash', 'icqq_kick_member', 'memory_search', 'memory_upsert'];
