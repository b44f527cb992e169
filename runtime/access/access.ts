/**
 * One predicate for both authoring paths. It decides from the
 * declared restrictions alone, so the runtime can answer without importing the tool module.
 */
import type { ChannelScope } from '../contract/manifest.js';
import { type ImMessage, type PermissionHost, toPermissionSubject } from './permissions.js';

/** The access-relevant part of a tool (a manifest tool, a definition, a skill…). */
export interface AccessRestrictions {
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly permissions?: readonly string[];
}

export function isUnrestricted(tool: AccessRestrictions): boolean {
  return !tool.platforms?.length && !tool.scopes?.length && !tool.permissions?.length;
}

/**
 * - no message (non-IM turn): only tools without any restriction;
 * - `platforms`: `String(message.$adapter)` must be listed (exact name);
 * - `scopes`: `message.$channel?.type || 'private'` must be listed;
 * - `permissions`: every entry must pass (AND); no permission host → deny.
 * Empty arrays mean "all".
 */
export async function canAccessTool(
  tool: AccessRestrictions,
  message: ImMessage | undefined,
  permissionHost?: PermissionHost,
): Promise<boolean> {
  if (!message) return isUnrestricted(tool);
  if (tool.platforms?.length && !tool.platforms.includes(String(message.$adapter))) return false;
  if (tool.scopes?.length) {
    const scope = message.$channel?.type || 'private';
    if (!(tool.scopes as readonly string[]).includes(scope)) return false;
  }
  if (tool.permissions?.length) {
    if (!permissionHost) return false;
    return permissionHost.checkAll(tool.permissions, toPermissionSubject(message));
  }
  return true;
}
