/**
 * Definition fields of zhin.js's earlier layout: `approval` on a tool (the earlier name of
 * `requiresApproval`), `adapter` on a tool (zhin.js's define helpers turn it into
 * `platforms: [adapter]`), `platformPermit(...)` helper calls in `permissions`, and a prompt
 * section's `id` / `priority` / `truncatable`. Each is an error that says what the field means
 * in zhin-gen and what `zhin-gen migrate` writes instead: dropping any of them would weaken a
 * policy (approval, who may call, whether a section may be cut) without a word.
 */
import type { ApprovalMode } from '@zhin-gen/runtime';
import { APPROVAL_MODES } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';

type ObjectLit = Extract<Lit, { t: 'object' }>;

/** The `requiresApproval` value an earlier `approval` value stands for, if there is one. */
export function approvalEquivalent(lit: Lit): ApprovalMode | undefined {
  if (lit.t === 'string' && (APPROVAL_MODES as readonly string[]).includes(lit.v)) return lit.v as ApprovalMode;
  if (lit.t === 'boolean') return lit.v ? 'always' : 'never';
  return undefined;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** ZG2056 for `approval`, at its key. */
export function checkEarlierApproval(fields: ObjectLit, what: string): Diagnostic[] {
  const lit = fields.props.approval;
  if (!lit) return [];
  const loc = fields.keyLocs.approval ?? lit.loc;
  const equivalent = approvalEquivalent(lit);
  const written =
    lit.t === 'string' ? quote(lit.v) : lit.t === 'boolean' ? String(lit.v) : lit.t === 'unknown' ? lit.text : lit.t;
  const also = fields.props.requiresApproval ? ' (the definition also sets `requiresApproval`: keep one)' : '';
  return [
    diag('ZG2056', {
      ...loc,
      message:
        equivalent !== undefined
          ? `${what}: \`approval: ${written}\` is zhin.js's earlier name of requiresApproval; did you mean \`requiresApproval: '${equivalent}'\`?${also}`
          : `${what}: \`approval: ${written}\` is zhin.js's earlier name of requiresApproval and has no requiresApproval equivalent${also}`,
      hint:
        equivalent !== undefined
          ? `Write \`requiresApproval: '${equivalent}'\` (what this tool would have had); \`zhin-gen migrate\` does it. Ignoring \`approval\` would make the tool 'on-risk' without a word.`
          : `Write \`requiresApproval\` with one of ${APPROVAL_MODES.map(quote).join(', ')}; ignoring \`approval\` would make the tool 'on-risk' without a word.`,
    }),
  ];
}

/**
 * ZG2060 for `adapter`, at its key: zhin.js's `defineAgentTool` / `defineTool` turn it into
 * `platforms: [adapter]`, so a tool written `adapter: 'wecom'` is offered on WeCom only. Ignored
 * (an unknown field, a warning) the tool was offered on every platform.
 */
export function checkEarlierAdapter(fields: ObjectLit, what: string): Diagnostic[] {
  const lit = fields.props.adapter;
  if (!lit) return [];
  const loc = fields.keyLocs.adapter ?? lit.loc;
  const also = fields.props.platforms ? ' (the definition also sets `platforms`: keep one)' : '';
  return [
    diag('ZG2060', {
      ...loc,
      message:
        lit.t === 'string'
          ? `${what}: \`adapter: ${quote(lit.v)}\` is zhin.js's earlier way to limit a tool to one platform; did you mean \`platforms: [${quote(lit.v)}]\`?${also}`
          : `${what}: \`adapter\` is zhin.js's earlier way to limit a tool to one platform; write \`platforms: ['<adapter>']\`${also}`,
    }),
  ];
}

const PLATFORM_PERMIT = /^platformPermit\s*\(\s*(?:(['"`])([^'"`]*)\1\s*(?:,\s*(['"`])([^'"`]*)\3\s*)?)?,?\s*\)$/;

/**
 * `permissions` entries that are `platformPermit(...)` calls: ZG2057 each, with the literal the
 * call returns (`platformPermit(adapter, perm)` → `'platform(adapter,perm)'`; the one-argument
 * form of an adapter package takes that package's adapter, shown from `platforms` when it names
 * exactly one). Returns the fields without those entries, so they are not reported again.
 */
export function checkPlatformPermits(
  fields: ObjectLit,
  what: string,
): { fields: ObjectLit; diagnostics: Diagnostic[] } {
  const permissions = fields.props.permissions;
  if (permissions?.t !== 'array') return { fields, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const platforms = fields.props.platforms;
  const sole =
    platforms?.t === 'array' && platforms.items.length === 1 && platforms.items[0]!.t === 'string'
      ? platforms.items[0]!.v
      : undefined;
  const kept = permissions.items.filter((item) => {
    if (item.t !== 'unknown') return true;
    const match = PLATFORM_PERMIT.exec(item.text.trim());
    if (!match && !/^platformPermit\s*\(/.test(item.text.trim())) return true;
    const [, , first, , second] = match ?? [];
    const literal =
      second !== undefined
        ? `'platform(${first},${second})'`
        : first !== undefined
          ? `'platform(${sole ?? '<adapter>'},${first})'`
          : undefined;
    const adapterNote =
      second === undefined && first !== undefined && sole === undefined
        ? ' (<adapter>: the adapter of the package platformPermit is imported from)'
        : '';
    diagnostics.push(
      diag('ZG2057', {
        ...item.loc,
        message: literal
          ? `${what}: \`${item.text.trim()}\` is the platformPermit() helper of zhin.js's earlier layout; write the permit it returns as a literal: ${literal}${adapterNote}`
          : `${what}: \`${item.text.trim()}\` is the platformPermit() helper of zhin.js's earlier layout; write the permit it returns as a literal 'platform(<adapter>,<perm>)'`,
      }),
    );
    return false;
  });
  if (diagnostics.length === 0) return { fields, diagnostics };
  return {
    fields: { ...fields, props: { ...fields.props, permissions: { ...permissions, items: kept } } },
    diagnostics,
  };
}

/** ZG2059 for a prompt section's earlier `id`, `priority` and `truncatable`. */
export function checkEarlierSectionFields(fields: ObjectLit, what: string, dirName: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (key: string): Lit['loc'] => fields.keyLocs[key] ?? fields.props[key]!.loc;
  const { id, priority, truncatable } = fields.props;
  if (id) {
    const value = id.t === 'string' ? `"${id.v}"` : 'computed';
    out.push(
      diag('ZG2059', {
        ...at('id'),
        message: `${what}: \`id\` (${value}) is a field of zhin.js's earlier prompt sections; zhin-gen identifies a section by its directory ("${dirName}")${id.t === 'string' && id.v !== dirName ? `, so rename the directory to "${id.v}" to keep the id` : ''}`,
      }),
    );
  }
  if (priority) {
    const value = priority.t === 'number' ? String(priority.v) : 'its value';
    out.push(
      diag('ZG2059', {
        ...at('priority'),
        message: `${what}: \`priority\` is a field of zhin.js's earlier prompt sections; zhin-gen orders sections by \`order\` (larger renders first): write \`order: ${value}\``,
      }),
    );
  }
  if (truncatable) {
    const retention =
      truncatable.t === 'boolean' ? (truncatable.v ? "'preferred'" : "'required'") : "'required' or 'preferred'";
    out.push(
      diag('ZG2059', {
        ...at('truncatable'),
        message: `${what}: \`truncatable\` is a field of zhin.js's earlier prompt sections; zhin-gen says it with \`retention\`: write \`retention: ${retention}\``,
      }),
    );
  }
  return out;
}
