/**
 * The earlier agent keys (front matter of `.agent.md`, or the literal of `agent.ts`) → agent.json.
 * `description`, `tools` (or the earlier `toolNames`), `platforms` and `model` keep their names;
 * `maxIterations` is `maxSteps`. Keys zhin-gen does not read (`keywords`, `tags`, `role`,
 * `contextMode`, …) are kept in agent.json as they were, so nothing is lost; the compiler lists
 * them (ZG4004 warnings) until they are removed by hand.
 */
import type { SourceLocation } from '../diagnostics.js';
import type { Draft } from './draft.js';
import { holdsProtoKey, PROTO_KEY } from './source.js';

export { STUB_MARK } from '../parse/manifest-values.js';
import { TODO_MARK } from '../parse/manifest-values.js';

const RENAMED: Readonly<Record<string, string>> = { toolNames: 'tools', maxIterations: 'maxSteps' };
const ORDER = ['description', 'tools', 'platforms', 'model', 'maxSteps'];

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '');
}

/** agent.json text, or undefined when a value cannot be carried (reported at its key). */
export function agentJsonFrom(
  draft: Draft,
  data: Readonly<Record<string, unknown>>,
  lineOf: (key: string) => SourceLocation,
  what: string,
  name: string,
): string | undefined {
  const fail = (key: string, why: string): undefined => {
    draft.note('ZG6001', lineOf(key), `${what}: not converted, ${why}`);
    return undefined;
  };
  if (holdsProtoKey(data))
    return fail(PROTO_KEY, 'a key named `__proto__` cannot be carried into agent.json; rename it');
  if (data.tools !== undefined && data.toolNames !== undefined)
    return fail('toolNames', 'both `tools` and `toolNames` are given');
  if (data.maxIterations !== undefined && data.maxSteps !== undefined)
    return fail('maxIterations', 'both `maxIterations` and `maxSteps` are given');
  const known: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'name' || value === undefined || value === null) continue;
    const target = RENAMED[key] ?? key;
    if (ORDER.includes(target)) known[target] = value;
    else kept[key] = value;
  }
  if (known.tools !== undefined && !isStringList(known.tools))
    return fail(data.toolNames !== undefined ? 'toolNames' : 'tools', 'its tool list is not a list of names');
  if (known.platforms !== undefined && !isStringList(known.platforms))
    return fail('platforms', '`platforms` is not a list of names');
  if (known.model !== undefined && (typeof known.model !== 'string' || known.model === ''))
    return fail('model', '`model` is not a name');
  if (known.maxSteps !== undefined && !(Number.isSafeInteger(known.maxSteps) && (known.maxSteps as number) >= 1))
    return fail(
      data.maxIterations !== undefined ? 'maxIterations' : 'maxSteps',
      'the step limit is not an integer ≥ 1',
    );
  if (known.description !== undefined && (typeof known.description !== 'string' || known.description.trim() === ''))
    return fail('description', '`description` is not a non-empty string');
  const json: Record<string, unknown> = {};
  if (known.description === undefined) {
    json.description = `${TODO_MARK}: describe the "${name}" agent (the earlier definition had no description)`;
    draft.note('ZG6002', lineOf('description'), `${what}: no \`description\`; agent.json gets a marked placeholder`);
  }
  for (const key of ORDER) if (known[key] !== undefined) json[key] = known[key];
  Object.assign(json, kept);
  return `${JSON.stringify(json, null, 2)}\n`;
}
