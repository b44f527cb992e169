/**
 * One predicate for both authoring paths (manifest tools and definitions alike). It decides from
 * the declared restrictions alone, so the runtime can answer without importing the tool module.
 * The rules themselves are the access decision's restrictions step (decision.ts).
 */
import type { ChannelScope } from '../contract/manifest.js';
import { decideRestrictions, isUnrestricted } from './decision.js';
import type { ImMessage, PermissionHost } from './permissions.js';

/** The access-relevant part of a tool (a manifest tool, a definition, a skill…). */
export interface AccessRestrictions {
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly permissions?: readonly string[];
}

export { isUnrestricted };

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
  return (await decideRestrictions(tool, message, permissionHost)).admitted;
}
