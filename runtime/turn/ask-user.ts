/**
 * `ask_user`: a generation-owned tool. It
 * asks through the turn's `QuestionPort` only. Unattended turns (schedules) have no port and
 * the tool says so; it never falls back to a global message, adapter or user queue.
 */
import type { ToolExecutionContext } from '../contract/define.js';
import type { ExecutableTool, ToolBinding } from '../generation/capability.js';
import { ASK_USER } from '../contract/names.js';
import type { ImMessage } from '../access/permissions.js';
import { builtinValidator } from '../validators/builtin.js';
import { ASK_USER_SCHEMA } from '../validators/builtin-schemas.js';

// The name is reserved with the others in runtime/contract/names.ts; re-exported for the turn's imports.
export { ASK_USER };

/** What the host's question port receives; answers must match this session and principal. */
export interface QuestionRequest {
  readonly requestId: string;
  readonly question: string;
  readonly options?: readonly string[];
  readonly sessionKey: string;
  readonly principal: unknown;
  readonly message?: ImMessage;
  /** Aborted when the call or turn is cancelled. */
  readonly signal: AbortSignal;
}

export interface QuestionPort {
  ask(request: QuestionRequest): Promise<string>;
}

/** Thrown by a tool that needs an interactive port the turn does not have. */
export class ToolUnavailableError extends Error {
  override readonly name = 'ToolUnavailableError';
}

export interface AskUserInput {
  readonly question: string;
  readonly options?: readonly string[];
}

export interface AskUserOutput {
  readonly answer: string;
}

/** Why a tool that asks the user cannot run: the turn has no way to ask (model- and host-facing). */
export function noQuestionPort(toolName: string): string {
  return `${toolName} is unavailable in this turn: the user cannot be asked here (the turn was begun without a QuestionPort: beginTurn({ question }))`;
}

const executable: ExecutableTool = Object.freeze({
  async execute(input: unknown, context: ToolExecutionContext): Promise<AskUserOutput> {
    const { question, options } = input as AskUserInput;
    if (!context.question) {
      throw new ToolUnavailableError(noQuestionPort('ask_user'));
    }
    const answer = await context.question.ask({ question, ...(options ? { options } : {}) });
    return { answer };
  },
});

/** One per generation, so per-generation caches (compiled validators) die with it. */
export function createAskUserBinding(): ToolBinding {
  return Object.freeze({
    qualifiedName: ASK_USER,
    localName: ASK_USER,
    owner: '',
    source: 'runtime' as const,
    placement: 'plugin' as const,
    description: 'Ask the user a question in this conversation and wait for the answer.',
    inputSchema: ASK_USER_SCHEMA,
    inputCheck: 'json' as const,
    validator: builtinValidator('ask-user'),
    // Asking the user is itself the interaction; confirming it first would be circular.
    requiresApproval: 'never' as const,
    platforms: Object.freeze([]),
    scopes: Object.freeze([]),
    permissions: Object.freeze([]),
    hidden: false,
    keywords: Object.freeze(['question', 'ask', 'user', 'clarify']),
    resolve: () => Promise.resolve(executable),
  });
}
