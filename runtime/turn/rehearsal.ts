/**
 * A rehearsal of the tool pipeline (pipeline.ts), run where the catalog prefetches its search
 * index (a turn that offers `discover` listed its tools, and the model's round trip is out). In a
 * fresh process the first tool call — usually `discover` — otherwise compiles some fifty
 * functions of the pipeline on a user's turn (access, snapshots, the journal, validation,
 * approval, execution: about 1.5 ms of CPU at 20,000 tools, docs/bench.md): the rehearsal calls
 * the same code once, so V8 has compiled it by the time the model answers.
 *
 * It has no effect anyone can observe: the call runs in an environment of its own — a journal
 * with no sink that nobody reads, no approval or question port, no permission host, no message,
 * a signal nobody aborts — on a stand-in of the generation that has no hooks (a user's
 * `tool:before`/`tool:after` hook never sees it), for a tool of its own whose `execute` returns
 * a fixed value and reads nothing (no catalog, no session, no search). Nothing a principal may
 * not access is listed, searched or hinted; a failure is swallowed (it only means no head start).
 */
import type { ToolBinding } from '../generation/capability.js';
import type { Generation } from '../generation/generation.js';
import type { ApprovalMemory } from './approval.js';
import { TurnJournal, type ToolOutcome } from './journal.js';
import { type CallEnvironment, executeToolCall } from './pipeline.js';

const NO_HOOKS: readonly never[] = Object.freeze([]);
const ignore = (): void => {};
// Never consulted: a rehearsed tool needs no approval (`requiresApproval: 'never'`).
const NO_MEMORY: ApprovalMemory = Object.freeze({ has: () => false, remember: ignore });

/**
 * Runs `binding` once through the tool pipeline with `input`, off every turn: its own journal
 * (returned for tests, read by nobody else), `generation` without its hooks.
 */
export async function rehearseToolCall(
  generation: Generation,
  binding: ToolBinding,
  input: unknown,
): Promise<{ readonly outcome: ToolOutcome; readonly journal: TurnJournal }> {
  // Reads fall through to the generation (its id, its owners' config); its hooks are none.
  const stage = Object.create(generation, { hooks: { value: NO_HOOKS } }) as Generation;
  const journal = new TurnJournal({ turnId: 'rehearsal', sessionKey: '', traceId: '' }, undefined, ignore);
  const env: CallEnvironment = {
    generation: stage,
    turnId: 'rehearsal',
    traceId: 'rehearsal',
    sessionKey: '',
    origin: 'system',
    principal: undefined,
    unattended: true,
    signal: new AbortController().signal,
    scope: { activeSkills: new Set<string>() },
    turnTools: new Map([[binding.qualifiedName, binding]]),
    journal,
    approvalMemory: NO_MEMORY,
    riskPolicies: NO_HOOKS,
    onError: ignore,
    track: ignore,
    nextId: (prefix) => `${prefix}_rehearsal`,
  };
  const outcome = await executeToolCall(env, binding.qualifiedName, input);
  return { outcome, journal };
}
