/**
 * What the model reads for each tool outcome, the same text for every provider. The rule: the
 * model sees what helps it continue and nothing the principal may not know. So a capability
 * denial is the runtime's own answer for an unknown name (`tool "x" is not available`), whatever
 * the real reason was (unknown, out of scope, inaccessible, undecided at abort); and host-side
 * failures (an approval port or hook that threw, a module that failed to import) are described
 * without their error text, which may carry paths or internals. docs/hosts.md lists the texts.
 */
import type { ToolOutcome } from '../index.js';

/** The runtime's denial reasons that are safe to show as they are (fixed wording). */
const APPROVAL_DECLINED = 'approval denied';

function serialise(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // bigint, circular data: the journal keeps the value; the model gets a description.
    return String(value);
  }
}

/** The model-visible text of one outcome (the tool's output as JSON when it completed). */
export function outcomeText(outcome: ToolOutcome): string {
  switch (outcome.status) {
    case 'completed':
      return serialise(outcome.output);
    case 'denied':
      if (outcome.policy === 'capability') return outcome.reason;
      if (outcome.policy === 'approval') {
        return outcome.reason === APPROVAL_DECLINED
          ? 'The user did not approve this call.'
          : "This call needs the user's approval, which cannot be asked for in this conversation.";
      }
      // A hook's veto is the plugin's message to the model; a hook that failed is not.
      return outcome.reason.startsWith('vetoed by hook ')
        ? `The call was refused: ${outcome.reason}`
        : 'The call was refused by a policy.';
    case 'cancelled':
      return `The call was cancelled (${outcome.reason}).`;
    case 'failed':
      switch (outcome.error.code) {
        case 'invalid_input':
          return outcome.error.message;
        case 'load_failed':
          return 'The tool could not be loaded.';
        case 'unavailable':
          return outcome.error.message;
        case 'execution_error':
          return `The tool failed: ${outcome.error.message}${outcome.retryable ? ' (retrying may help)' : ''}`;
      }
  }
}

/** `is_error` in providers that have the flag: everything but a completed call. */
export function isErrorOutcome(outcome: ToolOutcome): boolean {
  return outcome.status !== 'completed';
}
