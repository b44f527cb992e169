/**
 * Declarative approval (docs/runtime.md), decided after access and before
 * execution:
 * - `never`: no confirmation (it never bypasses access, hooks or dedicated policies);
 * - `always`: ask every time;
 * - `once`: ask until approved once, then remembered for this session + tool;
 * - `on-risk`: ask, unless a dedicated `RiskPolicy` for this tool (bash, file, network…)
 *   verified the concrete call (command, path, URL) — then it is not asked again.
 * Asking needs the turn's `ApprovalPort`; an unattended turn or a missing/unavailable port
 * fails closed.
 */
import type { ApprovalMode, ChannelScope, JsonSchema, ToolPlacement } from '../contract/manifest.js';
import type { ImMessage } from '../access/permissions.js';

export const APPROVAL_UNAVAILABLE = 'approval required but ApprovalPort unavailable';

export interface ApprovalRequest {
  readonly requestId: string;
  readonly toolName: string;
  /** `${sessionKey}:${toolName}` — what a `once` approval is remembered under. */
  readonly scopeKey: string;
  /** Human-readable question for the approver. */
  readonly question: string;
  /** Aborted when the turn or the call is cancelled: dismiss the prompt. */
  readonly signal: AbortSignal;
  readonly mode: ApprovalMode;
  readonly sessionKey: string;
  /** The validated input of the call being approved, as a deep-frozen snapshot: changing it changes nothing. */
  readonly input: unknown;
}

export interface ApprovalPort {
  /** `false` means "installed but cannot ask right now" (e.g. no interactive channel). */
  readonly available?: boolean;
  requestApproval(request: ApprovalRequest): Promise<boolean>;
}

/** The tool metadata a policy may look at (never the module). */
export interface ToolDescriptor {
  readonly qualifiedName: string;
  readonly localName: string;
  readonly owner: string;
  readonly source: 'feature' | 'setup' | 'seam' | 'runtime';
  readonly placement: ToolPlacement;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly keywords: readonly string[];
  readonly requiresApproval: ApprovalMode;
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
}

export interface RiskPolicyCall {
  readonly tool: ToolDescriptor;
  /** A deep-frozen snapshot of the validated input. */
  readonly input: unknown;
  readonly sessionKey: string;
  readonly origin: string;
  readonly principal: unknown;
  readonly message?: ImMessage;
}

/**
 * A dedicated policy for a class of tools (shell, file system, network). `verify` returns true
 * only when it has checked the concrete command/path/URL of this call; anything else (false,
 * a throw) leaves the `on-risk` confirmation in place. Policies only ever remove a prompt for
 * `on-risk` tools; `always` and `once` are never relaxed by them.
 */
export interface RiskPolicy {
  readonly id: string;
  appliesTo(tool: ToolDescriptor): boolean;
  verify(call: RiskPolicyCall): boolean | Promise<boolean>;
}

/**
 * Where `once` approvals are remembered; in memory per host by default, or a durable store
 * (docs/stores.md). A `has` that throws or rejects means "not approved": the user is asked again
 * (an unattended call is denied), never let through.
 */
export interface ApprovalMemory {
  has(scopeKey: string): boolean | Promise<boolean>;
  remember(scopeKey: string): void | Promise<void>;
  /** Revokes every `once` approval of a session. */
  forgetSession?(sessionKey: string): void | Promise<void>;
}

export interface ApprovalMemoryOptions {
  /** A remembered approval expires this long after it was given. Default: never. */
  readonly ttlMs?: number;
  /** Wall clock for the expiry. Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * Approvals kept, the oldest given forgotten first (asked again: never a grant). Default
   * 100,000. Expired ones go first, whatever the bound.
   */
  readonly maxEntries?: number;
}

/** When an approval given at `at` stops counting (`undefined`: never); the one rule of every store. */
export function approvalExpiry(at: number, ttlMs: number | undefined): number | undefined {
  return ttlMs === undefined ? undefined : at + ttlMs;
}

/**
 * Whether a stored approval without an expiry still counts: only while the store has no TTL. One
 * written before the operator set `approvalTtlMs` would otherwise never expire; it is asked again
 * once and then kept with an expiry (the stricter reading, as a store fault never grants).
 */
export function unexpiringApprovalCounts(ttlMs: number | undefined): boolean {
  return ttlMs === undefined;
}

export function createApprovalMemory(
  options: ApprovalMemoryOptions = {},
): ApprovalMemory & { forgetSession(sessionKey: string): void; readonly size: number } {
  const clock = options.clock ?? Date.now;
  const max = options.maxEntries ?? 100_000;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('maxEntries must be an integer ≥ 1');
  /** scope key → expiry (`Infinity`: never), in the order given (re-inserted when given again). */
  const approved = new Map<string, number>();
  /** The size at which expired entries are next swept: twice what the last sweep left. */
  let sweepAt = 1024;
  const remember = (scopeKey: string): void => {
    const now = clock();
    approved.delete(scopeKey);
    approved.set(scopeKey, approvalExpiry(now, options.ttlMs) ?? Infinity);
    if (approved.size >= sweepAt) {
      for (const [key, expiry] of approved) if (expiry <= now) approved.delete(key);
      sweepAt = Math.max(1024, approved.size * 2);
    }
    if (approved.size > max) approved.delete(approved.keys().next().value!);
  };
  return {
    has: (scopeKey) => (approved.get(scopeKey) ?? 0) > clock(),
    remember,
    /** Approvals held (expired ones until the next sweep), for a host's metrics. */
    get size() {
      return approved.size;
    },
    forgetSession(sessionKey) {
      for (const key of [...approved.keys()]) if (splitScopeKey(key).sessionKey === sessionKey) approved.delete(key);
    },
  };
}

/** Tool names never contain `:`, so the last `:` separates session and tool unambiguously. */
export function approvalScopeKey(sessionKey: string, toolName: string): string {
  return `${sessionKey}:${toolName}`;
}

export function splitScopeKey(scopeKey: string): { readonly sessionKey: string; readonly toolName: string } {
  const at = scopeKey.lastIndexOf(':');
  return { sessionKey: scopeKey.slice(0, at), toolName: scopeKey.slice(at + 1) };
}

/** Handed to the tool as `context.policy`: how this call got past approval. */
export interface ToolCallPolicy {
  readonly approval: ApprovalMode;
  readonly decision: 'not-required' | 'approved' | 'remembered' | 'verified';
  readonly verifiedBy?: string;
}

export type ApprovalNeed =
  | { readonly required: false; readonly policy: ToolCallPolicy }
  /** `memoryFailed`: the `once` memory could not answer, so it counts as "not remembered". */
  | { readonly required: true; readonly scopeKey: string; readonly memoryFailed?: string };

export async function decideApproval(
  call: RiskPolicyCall,
  memory: ApprovalMemory,
  policies: readonly RiskPolicy[],
): Promise<ApprovalNeed> {
  const mode = call.tool.requiresApproval;
  const scopeKey = approvalScopeKey(call.sessionKey, call.tool.qualifiedName);
  switch (mode) {
    case 'never':
      return { required: false, policy: { approval: mode, decision: 'not-required' } };
    case 'once': {
      let remembered: boolean;
      try {
        remembered = (await memory.has(scopeKey)) === true;
      } catch (error) {
        // Fail closed: a store fault never grants, it asks again.
        return { required: true, scopeKey, memoryFailed: error instanceof Error ? error.message : String(error) };
      }
      return remembered
        ? { required: false, policy: { approval: mode, decision: 'remembered' } }
        : { required: true, scopeKey };
    }
    case 'on-risk': {
      for (const policy of policies) {
        try {
          if (policy.appliesTo(call.tool) && (await policy.verify(call)) === true) {
            return { required: false, policy: { approval: mode, decision: 'verified', verifiedBy: policy.id } };
          }
        } catch {
          // A policy that fails has verified nothing.
        }
      }
      return { required: true, scopeKey };
    }
    default:
      // 'always', and unknown modes (a hand-written manifest) are treated as the strictest.
      return { required: true, scopeKey };
  }
}

/**
 * Characters a chat renders as nothing or uses to reorder text (controls, format characters:
 * zero-width, bidi overrides and isolates, the tag characters that spell ASCII invisibly;
 * private use, line and paragraph separators, the Hangul fillers): escaped in
 * the question, so the approver reads the input the tool will get, in its order.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0\ufff9-\ufffb]|\u034f/gu;

/**
 * The question an approver is asked: the tool, its description and the whole validated input as
 * JSON. Never cut: the model writes the input, and a cut after a fixed length let it pad the part
 * the approver saw and put the dangerous part behind it. A chat that cannot show a long question
 * should fail to ask (the call is then denied), or show `request.input` its own way.
 */
export function approvalQuestion(toolName: string, description: string, input: unknown): string {
  let rendered: string;
  try {
    rendered = JSON.stringify(input) ?? 'undefined';
  } catch {
    rendered = '[unserialisable input]';
  }
  // Each UTF-16 unit as JSON writes it (a tag character U+E0072 is two: \udb40\udc72).
  rendered = rendered.replace(INVISIBLE, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
  return `Allow tool "${toolName}" (${description}) to run with input ${rendered}?`;
}
