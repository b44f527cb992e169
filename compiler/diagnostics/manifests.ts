/** The catalog's ZG4xxx: the manifests: SKILL.md, agent.json, AGENTS.md. */
import { MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';
import type { CatalogEntry } from './entry.js';

export const MANIFESTS = {
  // ── ZG4xxx manifests: SKILL.md, agent.json, AGENTS.md ───────────────────────
  ZG4001: {
    severity: 'error',
    title: 'SKILL.md front matter missing or invalid',
    hint: 'SKILL.md starts with a YAML front matter block between "---" lines holding at least name and description.',
  },
  ZG4002: {
    severity: 'error',
    title: 'Name does not match its directory',
    hint: 'The `name` must equal the directory name (or be left out for agents).',
  },
  ZG4003: {
    severity: 'error',
    title: 'Description missing or out of range',
    hint: `Give a description of 1 to ${MAX_DESCRIPTION_CHARS} characters.`,
  },
  ZG4004: {
    severity: 'warning',
    title: 'Unknown manifest key',
    hint: 'The key is ignored. Check the spelling against docs/authoring.md.',
  },
  ZG4005: {
    severity: 'warning',
    title: 'SKILL.md has no instructions',
    hint: "Write the skill instructions as Markdown below the front matter; they are what load_skill returns. An empty body is allowed (the Agent Skills specification's smallest skill has none), but load_skill then returns no instructions.",
  },
  ZG4006: {
    severity: 'error',
    title: 'Manifest key has the wrong type',
    hint: 'Use the type documented for the key (see docs/authoring.md).',
  },
  ZG4010: {
    severity: 'error',
    title: 'agent.json is not valid JSON',
    hint: 'Fix the JSON syntax at the reported position (no comments or trailing commas).',
  },
  ZG4011: {
    severity: 'error',
    title: 'Value nested too deeply',
    hint: 'agent.json and SKILL.md front matter hold names, lists of names and numbers; zhin-gen stops reading a value nested more than 256 levels deep instead of overflowing the stack. Flatten the value.',
  },
  ZG4014: {
    severity: 'error',
    title: 'Required agent file missing',
    hint: 'A sub-agent directory needs agent.json, system.md, boundaries.md and conventions.md.',
  },
  ZG4015: {
    severity: 'error',
    title: 'Required agent file is empty',
    hint: 'system.md, boundaries.md and conventions.md must have content.',
  },
  ZG4016: {
    severity: 'error',
    title: 'AGENTS.md missing',
    hint: 'Sub-agents extend the main agent: add AGENTS.md at the plugin root.',
  },
  ZG4017: {
    severity: 'warning',
    title: 'conventions.md restates an AGENTS.md heading',
    hint: 'conventions.md extends AGENTS.md and must not redefine its sections; rename the heading or move the rule to AGENTS.md.',
  },
  ZG4018: {
    severity: 'error',
    title: 'Placeholder left by zhin-gen migrate',
    hint: 'migrate writes a marked placeholder where the earlier layout had nothing to convert (a sub-agent without boundaries, an agent.json without a description); the model would be sent it. Write the real text and remove the marker.',
  },
  ZG4019: {
    severity: 'error',
    title: "zhin.js's name for an agent.json key",
    hint: "zhin.js's agent step limit `max_iterations` (or `maxIterations`) is `maxSteps` in agent.json: rename the key. An error, not an ignored key: dropping the limit would let the agent run to the default number of steps.",
  },
} as const satisfies Record<string, CatalogEntry>;
