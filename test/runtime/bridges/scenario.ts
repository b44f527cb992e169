/**
 * The bot every bridge test talks to: a hand-built manifest (the shape the compiler emits) whose
 * tools are real `defineAgentTool` modules, Ajv for their JSON Schemas, a permission host, and an
 * IM turn of a plain member. `payroll` needs `role(master)`, so this principal may not run it.
 */
import {
  createCapabilityHost,
  defineAgentTool,
  PermissionHost,
  type ApprovalPort,
  type CapabilityHost,
  type CapabilityManifest,
  type HostConfig,
  type ImMessage,
  type JournalEntry,
  type ManifestAgent,
  type ManifestSkill,
  type ManifestTool,
  type QuestionPort,
  type Turn,
} from '../../../runtime/index.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

/** What the tools did (their `execute` ran), in order. */
export const executed: string[] = [];

type Execute = (input: Record<string, unknown>, context: { readonly signal: AbortSignal }) => unknown;

function tool(
  name: string,
  description: string,
  schema: Record<string, unknown>,
  execute: Execute,
  meta: Partial<ManifestTool> = {},
): ManifestTool {
  const definition = defineAgentTool({
    description,
    // The module says what its entry says: one that asks for more is refused as stale.
    requiresApproval: meta.requiresApproval ?? 'never',
    async execute(input: Record<string, unknown>, context) {
      executed.push(name);
      return execute(input, context);
    },
  });
  return {
    qualifiedName: name,
    localName: name,
    owner: '',
    placement: 'plugin',
    description,
    inputSchema: schema,
    requiresApproval: 'never',
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    source: `tools/${name}/index.ts`,
    ...meta,
    load: () => Promise.resolve({ default: definition }),
  };
}

const city = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

/** Resolves the running `slow` call's promise when its signal aborts (it honours the abort). */
export const slowStarted: { notify?: () => void } = {};

export const TOOLS: readonly ManifestTool[] = [
  tool(
    'weather',
    'Weather forecast for a city',
    city,
    (input) => ({ city: input.city, forecast: 'sunny', celsius: 21 }),
    { keywords: ['forecast', 'rain'] },
  ),
  tool(
    'payroll',
    'Monthly payroll report for a staff member',
    { type: 'object', properties: { month: { type: 'string' } } },
    () => ({ total: 1_000_000 }),
    {
      permissions: ['role(master)'],
    },
  ),
  tool(
    'echo',
    'Echo a message back',
    { type: 'object', properties: { text: { type: 'string' } } },
    (input) => input.text,
  ),
  tool('flaky', 'Call the flaky upstream', { type: 'object' }, () => {
    throw Object.assign(new Error('upstream timed out'), { retryable: true });
  }),
  tool(
    'transfer',
    'Transfer money to an account',
    { type: 'object', properties: { amount: { type: 'number' } } },
    () => ({ ok: true }),
    { requiresApproval: 'always' },
  ),
  tool('slow', 'A long report', { type: 'object' }, (_input, context) => {
    slowStarted.notify?.();
    return new Promise((_resolve, reject) => {
      if (context.signal.aborted) return reject(new Error('stopped'));
      context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
    });
  }),
];

/** The private tool of the `reports` skill: listed only once `load_skill reports` ran. */
const MONTHLY = tool(
  'reports__monthly',
  'Monthly sales report',
  { type: 'object' },
  () => ({ month: 'May', sales: 42 }),
  {
    localName: 'monthly',
    placement: 'skill',
    skill: 'reports',
  },
);

const REPORTS: ManifestSkill = {
  qualifiedName: 'reports',
  name: 'reports',
  owner: '',
  description: 'Sales reports',
  tools: ['reports__monthly'],
  platforms: [],
  scopes: [],
  permissions: [],
  keywords: [],
  tags: [],
  always: false,
  instructions: 'Use reports__monthly for the current month.',
  source: 'skills/reports/SKILL.md',
};

export function botManifest(agents: readonly ManifestAgent[] = []): CapabilityManifest {
  return {
    version: 1,
    plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
    tools: [...TOOLS, MONTHLY],
    skills: [REPORTS],
    agents: [...agents],
    promptSections: [],
    hooks: [],
  };
}

export const MEMBER: ImMessage = {
  $adapter: 'qq',
  $channel: { id: 'g1', type: 'group' },
  $sender: { id: 'u1', role: 'member' },
};

export interface BotTurn {
  readonly host: CapabilityHost;
  readonly turn: Turn;
}

export async function botTurn(
  options: {
    config?: HostConfig;
    approval?: ApprovalPort;
    question?: QuestionPort;
    agent?: string;
    agents?: readonly ManifestAgent[];
  } = {},
): Promise<BotTurn> {
  executed.length = 0;
  const permissions = new PermissionHost();
  const host = createCapabilityHost({
    permissions,
    jsonSchemaValidator: ajvValidator(),
    ...(options.config ? { config: options.config } : {}),
  });
  await host.load(botManifest(options.agents));
  const turn = await host.beginTurn({
    sessionKey: 'qq:group:g1',
    message: MEMBER,
    ...(options.approval ? { approval: options.approval } : {}),
    ...(options.question ? { question: options.question } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
  });
  return { host, turn };
}

/** Journal entries per toolUseId, as `type` lists (parallel calls interleave; each call's order is fixed). */
export function journalByCall(journal: readonly JournalEntry[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const entry of journal) (out[entry.toolUseId] ??= []).push(`${entry.toolName}:${entry.type}`);
  return out;
}
