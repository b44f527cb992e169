/**
 * Identity (SPEC §4): qualifiedNames for every placement and owner. Owner-path segments and the
 * innermost enclosing scope (agent or skill) are joined to the local name with `__`.
 */
import type { Enclosure } from '../model.js';

export const RESERVED_NAMES: readonly string[] = ['discover', 'load_tool', 'load_skill', 'ask_user', 'spawn_task'];
export const PROVIDER_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

function ownerSegments(owner: string): string[] {
  return owner === '' ? [] : owner.split('/');
}

export function toolQualifiedName(enclosure: Enclosure, localName: string): string {
  const scope = enclosure.placement === 'skill' || enclosure.placement === 'agent-skill' ? enclosure.skill : enclosure.placement === 'agent' ? enclosure.agent : undefined;
  return [...ownerSegments(enclosure.owner), ...(scope !== undefined ? [scope] : []), localName].join('__');
}

export function skillQualifiedName(owner: string, agent: string | undefined, name: string): string {
  return [...ownerSegments(owner), ...(agent !== undefined ? [agent] : []), name].join('__');
}

export function agentQualifiedName(owner: string, name: string): string {
  return [...ownerSegments(owner), name].join('__');
}
