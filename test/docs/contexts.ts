/**
 * What a `ts` block of the docs may use without writing it: the one place the docs test defines
 * the surroundings a snippet assumes (`<!-- snippet: context=host -->` before its fence). Each
 * context is prepended to the block's module; it declares values only through `import('…')`
 * types, so it never clashes with the block's own imports or declarations.
 */

const RT = "import('@zhin-gen/runtime')";

/** An incoming IM message and a host application's own pieces. */
const app = `declare const message: ${RT}.ImMessage;
declare const config: ${RT}.HostConfig;
declare const myApprovalPort: ${RT}.ApprovalPort;
declare const consoleApprovalPort: ${RT}.ApprovalPort;
declare function lookupGroupRole(subject: ${RT}.PermissionSubject): string;
`;

/** A host that has loaded the example bot's manifest. */
const host = `declare const host: ${RT}.CapabilityHost;
declare const sessionKey: string;
${app}`;

/** A chat platform's bot client: `ask` posts a message (with buttons) and resolves with the click or reply. */
const chatBot = `declare const bot: {
  on(event: 'message', handler: (message: ${RT}.ImMessage & { readonly text: string }) => Promise<void>): void;
  reply(to: ${RT}.ImMessage, text: string): Promise<void>;
  ask(to: ${RT}.ImMessage, text: string, options: { readonly buttons?: readonly string[]; readonly signal: AbortSignal }): Promise<string>;
};
`;

export const CONTEXTS: Readonly<Record<string, string>> = {
  app,
  host,
  /** A turn of that host. */
  turn: `${host}declare const turn: ${RT}.Turn;
`,
  /** catalog.md: a host's session store, the question port and a model's tool call. */
  catalog: `${app}declare const permissions: ${RT}.PermissionHost;
declare const redisClient: import('@zhin-gen/runtime/redis').RedisCommandClient;
declare const question: ${RT}.QuestionPort;
declare const toolUse: { readonly id: string; readonly name: string; readonly input: unknown };
`,
  /** stores.md: better-sqlite3's \`Database\` (it ships no types), a turn id and a session key. */
  stores: `declare const Database: new (file: string, options?: { timeout?: number }) => import('@zhin-gen/runtime/sqlite').SqliteDatabase;
declare const turnId: string;
declare const sessionKey: string;
`,
  /** prompt.md: a model client. */
  prompt: `${host}declare const provider: { call(request: { system: string; tools: readonly unknown[] }): Promise<unknown> };
`,
  /** hosts.md: a chat platform's bot client (messages in; replies, buttons and questions out). */
  chat: chatBot,
  /** hosts.md: the same, plus the host's permission host and its chat ports (defined in hosts.md). */
  hosts: `${chatBot}declare const permissions: ${RT}.PermissionHost;
declare function chatPorts(message: ${RT}.ImMessage): { approval: ${RT}.ApprovalPort; question: ${RT}.QuestionPort };
`,
  /** A plugin's own code: `sync()`, a database and its token. */
  plugin: `declare function sync(): Promise<string>;
interface Db { close(): Promise<void> }
declare const db: Db;
declare const dbToken: ${RT}.ResourceToken<Db>;
`,
  /** seam.md: a root host's providers. */
  seam: `declare class SearchService {
  readonly id: string; readonly description: string;
  schema(scope: ${RT}.SeamScope): ${RT}.ToolSchema[];
  execute(scope: ${RT}.SeamScope, toolName: string, input: unknown): Promise<${RT}.ToolExecutionResult>;
}
declare class ResearchSkills {
  readonly id: string; readonly description: string;
  catalog(scope: ${RT}.SeamScope): ${RT}.SkillCatalogEntry[];
  describe(scope: ${RT}.SeamScope, skillId: string): Promise<string>;
}
declare const turn: ${RT}.Turn;
`,
  /** runtime.md: risk policies a host brings. */
  risk: `declare const createCapabilityHost: typeof ${RT}.createCapabilityHost;
declare const shellAllowlist: ${RT}.RiskPolicy;
declare const fsSandbox: ${RT}.RiskPolicy;
declare const urlAllowlist: ${RT}.RiskPolicy;
`,
};

/** The prelude for `context=a,b` ('' without one); an unknown name throws. */
export function contextPrelude(names: string | undefined): string {
  if (!names) return '';
  return names
    .split(',')
    .map((name) => {
      const text = CONTEXTS[name];
      if (text === undefined)
        throw new Error(
          `unknown snippet context "${name}" (defined in test/docs/contexts.ts: ${Object.keys(CONTEXTS).join(', ')})`,
        );
      return text;
    })
    .join('');
}
