/**
 * Identity (docs/authoring.md) for the compiler's model: a tool's qualifiedName from its enclosure. The
 * rules and builders themselves live in runtime/contract/names.ts, shared with the runtime, so the names
 * the manifest carries are exactly the names `host.load()` forms and checks.
 */
import { qualify } from '@zhin-gen/runtime/names';
import type { Enclosure } from '../model.js';

/** Owner segments, then the innermost enclosing scope (skill or agent), then the local name. */
export function toolQualifiedName(enclosure: Enclosure, localName: string): string {
  const scope =
    enclosure.placement === 'skill' || enclosure.placement === 'agent-skill'
      ? enclosure.skill
      : enclosure.placement === 'agent'
        ? enclosure.agent
        : undefined;
  return scope !== undefined ? qualify(enclosure.owner, scope, localName) : qualify(enclosure.owner, localName);
}
