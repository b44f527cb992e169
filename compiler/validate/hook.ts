/** Hook rule family (docs/authoring.md): `events` from the known list, `handle` a function. */
import type { HookEvent } from '@zhin-gen/runtime';
import { HOOK_EVENTS } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';
import { FieldReader } from './fields.js';

const HOOK_POLICY_FIELDS: ReadonlySet<string> = new Set(['events']);

export function validateHook(fields: Lit, what: string): { events: HookEvent[]; diagnostics: Diagnostic[] } {
  if (fields.t !== 'object')
    return {
      events: [],
      diagnostics: [diag('ZG2040', { ...fields.loc, message: `${what}: the definition must be an object literal` })],
    };
  // The runtime runs a hook for the manifest's events: one the build cannot read is an error (ZG2012).
  const reader = new FieldReader(fields.props, what, HOOK_POLICY_FIELDS);
  reader.unknownKeys(['events', 'handle'], fields.keyLocs, fields.opaque);
  const events = reader.strings('events', HOOK_EVENTS, 'ZG2040') ?? [];
  const diagnostics = reader.diagnostics;
  if (!fields.props.events || (fields.props.events.t === 'array' && fields.props.events.items.length === 0)) {
    diagnostics.push(
      diag('ZG2040', {
        ...(fields.props.events?.loc ?? fields.loc),
        message: `${what}: \`events\` must list at least one of ${HOOK_EVENTS.join(', ')}`,
      }),
    );
  }
  const handle = fields.props.handle;
  if (!handle || (handle.t !== 'function' && handle.t !== 'unknown'))
    diagnostics.push(
      diag('ZG2040', { ...(handle?.loc ?? fields.loc), message: `${what}: \`handle\` must be a function` }),
    );
  return { events: events.map((e) => e.value as HookEvent), diagnostics };
}
