/**
 * Tool definition rule family (docs/authoring.md): description, execute, approval, platforms, scopes,
 * permissions, hidden. Works on the literals read by the parse stage; the schema itself is
 * checked by the schema stage.
 */
import type { Writable } from '../util/writable.js';
import type { ApprovalMode, ChannelScope } from '@zhin-gen/runtime';
import { APPROVAL_MODES, CHANNEL_SCOPES, DEFAULT_APPROVAL_MODE } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';
import { FieldReader } from './fields.js';
import { validatePermits } from './permits.js';
import { checkEarlierAdapter, checkEarlierApproval, checkPlatformPermits } from './earlier-fields.js';

export const TOOL_FIELDS = [
  'description',
  'inputSchema',
  'requiresApproval',
  'platforms',
  'scopes',
  'permissions',
  'hidden',
  'keywords',
  'tags',
  'execute',
] as const;

/**
 * The fields the runtime enforces from the manifest (access and approval): one the build cannot
 * read is an error (ZG2012), never the default, which would weaken the tool's policy.
 */
export const TOOL_POLICY_FIELDS: ReadonlySet<string> = new Set([
  'requiresApproval',
  'platforms',
  'scopes',
  'permissions',
  'hidden',
]);

export interface ToolFields {
  readonly description: string;
  /** Where the description value is written (falls back to the definition). */
  readonly descriptionLoc?: SourceLocation;
  readonly requiresApproval: ApprovalMode;
  readonly platforms: readonly { value: string; loc: SourceLocation }[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
  /** Search words for `discover` (docs/authoring.md "Tools"): written by the author, in order. */
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
}

export function validateToolFields(
  fields: Lit,
  what: string,
  customPermits: readonly string[],
  options: { requireExecute: boolean },
): { value: ToolFields; diagnostics: Diagnostic[] } {
  if (fields.t !== 'object') {
    const diagnostics =
      fields.t === 'unknown'
        ? [
            diag('ZG2012', {
              ...fields.loc,
              message: `${what}: the definition is not an object literal (or spreads another object in): its access and approval fields cannot be read, and the manifest would carry the defaults`,
            }),
          ]
        : [diag('ZG2005', { ...fields.loc, message: `${what}: the definition must be an object` })];
    return {
      value: {
        description: '',
        requiresApproval: DEFAULT_APPROVAL_MODE,
        platforms: [],
        scopes: [],
        permissions: [],
        hidden: false,
        keywords: [],
        tags: [],
      },
      diagnostics,
    };
  }
  // zhin.js's earlier `approval`, `adapter` and platformPermit() are errors of their own, never "unknown".
  const earlierApproval = [...checkEarlierApproval(fields, what), ...checkEarlierAdapter(fields, what)];
  const permits = checkPlatformPermits(fields, what);
  const reader = new FieldReader(permits.fields.props, what, TOOL_POLICY_FIELDS);
  reader.unknownKeys([...TOOL_FIELDS, 'approval', 'adapter'], fields.keyLocs, fields.opaque);
  const diagnostics = reader.diagnostics;
  diagnostics.push(...earlierApproval, ...permits.diagnostics);
  // What the model reads to choose the tool: one the build cannot read would be sent empty.
  const computed = fields.props.description?.t === 'unknown' ? fields.props.description : undefined;
  const description = computed ? undefined : reader.string('description');
  if (!fields.props.description) {
    diagnostics.push(diag('ZG2004', { ...fields.loc, message: `${what}: \`description\` is missing` }));
  } else if (computed) {
    diagnostics.push(
      diag('ZG2004', {
        ...computed.loc,
        message: `${what}: \`description\` is not a literal value: the manifest, which the model is sent, would carry an empty description`,
      }),
    );
  } else if (description && description.value.trim() === '') {
    diagnostics.push(diag('ZG2004', { ...description.loc, message: `${what}: \`description\` is empty` }));
  }
  const execute = fields.props.execute;
  if (options.requireExecute) {
    if (!execute) diagnostics.push(diag('ZG2009', { ...fields.loc, message: `${what}: \`execute\` is missing` }));
    else if (execute.t !== 'function' && execute.t !== 'unknown')
      diagnostics.push(diag('ZG2009', { ...execute.loc, message: `${what}: \`execute\` must be a function` }));
  }
  let requiresApproval: ApprovalMode = DEFAULT_APPROVAL_MODE;
  const approval = reader.string('requiresApproval');
  if (approval) {
    if ((APPROVAL_MODES as readonly string[]).includes(approval.value))
      requiresApproval = approval.value as ApprovalMode;
    else
      diagnostics.push(
        diag('ZG2006', {
          ...approval.loc,
          message: `${what}: requiresApproval "${approval.value}" is not one of ${APPROVAL_MODES.map((m) => `'${m}'`).join(', ')}`,
        }),
      );
  }
  const platforms = reader.strings('platforms') ?? [];
  const scopes = (reader.strings('scopes', CHANNEL_SCOPES, 'ZG2007') ?? []).map((s) => s.value as ChannelScope);
  const permitList = reader.strings('permissions') ?? [];
  diagnostics.push(...validatePermits(what, permitList, customPermits));
  const hidden = reader.boolean('hidden') ?? false;
  const keywords = (reader.strings('keywords') ?? []).map((k) => k.value.trim());
  const tags = (reader.strings('tags') ?? []).map((t) => t.value.trim());
  // Assigned in key order, not spread (util/writable.ts): one per tool of a cold run.
  const head: Writable<Pick<ToolFields, 'description' | 'descriptionLoc'>> = {
    description: description?.value.trim() ?? '',
  };
  if (description) head.descriptionLoc = description.loc;
  return {
    value: {
      ...head,
      requiresApproval,
      platforms,
      scopes,
      permissions: permitList.map((p) => p.value),
      hidden,
      keywords,
      tags,
    },
    diagnostics,
  };
}
