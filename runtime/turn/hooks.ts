/**
 * Tool hooks (docs/authoring.md). A hook in scope observes every tool call of the turn: `tool:before`
 * may veto (the call becomes `tool_denied`, policy `hook`), `tool:after` observes the outcome.
 * Hooks never grant anything. A hook module is imported the first time it is in scope for a
 * call, like tool modules. A `tool:before` hook that fails to load or throws vetoes (fail
 * closed); a failing `tool:after` hook is reported and ignored (the call already happened).
 */
import { isDefinitionOf } from '../contract/definition-shape.js';
import type { AgentHook, ToolHookEvent } from '../contract/define.js';
import type { HookEvent, ManifestHook } from '../contract/manifest.js';
import { describeError } from '../generation/capability.js';
import { type TurnScope, isInScope } from '../access/scope.js';

const loaded = new WeakMap<ManifestHook, Promise<AgentHook>>();

function isAgentHook(value: unknown): value is AgentHook {
  return isDefinitionOf(value, 'agent-hook', 'handle', 'function');
}

function loadHook(hook: ManifestHook): Promise<AgentHook> {
  let pending = loaded.get(hook);
  if (!pending) {
    pending = hook.load().then((module) => {
      if (!isAgentHook(module?.default))
        throw new TypeError(`hook module ${hook.source} does not default-export defineAgentHook(...)`);
      return module.default;
    });
    // Do not cache a failure: the next call retries the import.
    pending.catch(() => loaded.delete(hook));
    loaded.set(hook, pending);
  }
  return pending;
}

export function hooksInScope(
  hooks: readonly ManifestHook[],
  scope: TurnScope,
  event: HookEvent,
): readonly ManifestHook[] {
  return hooks.filter((hook) => hook.events.includes(event) && isInScope(hook, scope));
}

export type BeforeHookVerdict =
  | { readonly vetoed: false }
  | { readonly vetoed: true; readonly hookId: string; readonly reason: string };

export async function runBeforeHooks(hooks: readonly ManifestHook[], event: ToolHookEvent): Promise<BeforeHookVerdict> {
  for (const hook of hooks) {
    try {
      const definition = await loadHook(hook);
      if (!definition.events.includes('tool:before')) continue;
      const result = await definition.handle(event);
      if (result && typeof result === 'object' && 'veto' in result) {
        return { vetoed: true, hookId: hook.id, reason: `vetoed by hook ${hook.id}: ${String(result.veto)}` };
      }
    } catch (error) {
      return { vetoed: true, hookId: hook.id, reason: `hook ${hook.id} failed: ${describeError(error)}` };
    }
  }
  return { vetoed: false };
}

export async function runAfterHooks(
  hooks: readonly ManifestHook[],
  event: ToolHookEvent,
  onError: (error: Error) => void,
): Promise<void> {
  for (const hook of hooks) {
    try {
      const definition = await loadHook(hook);
      if (definition.events.includes('tool:after')) await definition.handle(event);
    } catch (error) {
      onError(new Error(`tool:after hook ${hook.id} failed: ${describeError(error)}`, { cause: error }));
    }
  }
}
