/**
 * Small helpers shared by the manifest parsers (SKILL.md, agent.json) and the agent-directory
 * validators: text normalisation, value descriptions for messages and the static permit check.
 * Pure functions only. The length limits live with the naming rules (runtime/contract/names.ts).
 */
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { codePointLength } from '@zhin-gen/runtime/names';
import { customPermitPattern, parsePermitSyntax } from '@zhin-gen/runtime/permit-syntax';

/**
 * Removes a leading UTF-8 BOM. Positions are then counted from the first visible character, as
 * editors do (a BOM is never a column).
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A short, quoted rendering of a value for diagnostic messages ("got number 5"). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(truncate(value))}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function truncate(text: string): string {
  return codePointLength(text) > 60 ? `${Array.from(text).slice(0, 57).join('')}...` : text;
}

/**
 * Why a permit can never pass, or undefined when it can (docs/runtime.md). Builtin kinds only need to
 * parse; anything else (a bare name or an unknown `kind(...)`) must match a custom permit from the
 * config, given as an exact string or as a regular expression written `/source/flags`.
 */
export function permitProblem(permit: string, customPermits: readonly string[] = []): string | undefined {
  const syntax = parsePermitSyntax(permit);
  if (!syntax.ok) return syntax.reason;
  if (syntax.builtin) return undefined;
  if (customPermits.some((custom) => customPermitMatches(custom, permit))) return undefined;
  return syntax.form === 'bare'
    ? 'it is not a builtin permit and matches no custom permit declared in the config `permits` option'
    : `"${syntax.kind}" is not a builtin permit kind and the permit matches no custom permit declared in the config \`permits\` option`;
}

function customPermitMatches(custom: string, permit: string): boolean {
  const { regex, error } = customPermitPattern(custom);
  // An invalid pattern is refused by the config's check; it never matches.
  if (error !== undefined) return false;
  return regex ? regex.test(permit) : custom === permit;
}

/** POSIX join that treats '' and '.' as the root. */
export function joinPosix(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : `${dir.replace(/\/+$/, '')}/${name}`;
}

/** A name written in a manifest (a tool reference, a platform) with where it is written. */
export interface NamedEntry {
  readonly name: string;
  readonly loc: SourceLocation;
}

/**
 * The placeholders `zhin-gen migrate` writes where the earlier layout had nothing to convert (a
 * sub-agent's boundaries.md, an agent.json without a description): one home for the marks, so
 * the build finds every one migrate left. A placeholder is text the model would be sent
 * ("TODO: write …"), so a tree that still holds one must not pass `check` (ZG4018).
 */
export const STUB_MARK = '<!-- zhin-gen migrate: STUB. The earlier layout had no source for this file; replace it. -->';
export const TODO_MARK = 'TODO(zhin-gen migrate)';

/** 1-based line and column of the first migrate placeholder in `text`, if it holds one. */
export function migratePlaceholderAt(text: string): { readonly line: number; readonly column: number } | undefined {
  const stub = text.indexOf(STUB_MARK);
  const todo = text.indexOf(TODO_MARK);
  return positionOf(text, stub === -1 ? todo : todo === -1 ? stub : Math.min(stub, todo));
}

/**
 * The texts `zhin-gen new` writes for the author to replace (compiler/scaffold/capabilities.ts:
 * "Say here what the tool does …") all say "say here" followed by what to write; a file still
 * holding one would send it to the model (ZG2065, checkNewPlaceholder below). One home for the pattern:
 * test/compiler/cli/new.test.ts checks that every file `new` writes is warned about.
 */
export const NEW_PLACEHOLDER = /\b[Ss]ay here (?:what|when|who|how)\b/;

/** 1-based line and column of the first `zhin-gen new` placeholder in `text`, if it holds one. */
export function newPlaceholderAt(text: string): { readonly line: number; readonly column: number } | undefined {
  return positionOf(text, text.search(NEW_PLACEHOLDER));
}

/**
 * ZG2065 at the first `zhin-gen new` placeholder of a file whose text reaches the model (a tool's
 * or skill's description, a section's content, an agent's files, AGENTS.md). A warning, not an
 * error (as migrate's marked placeholders are, ZG4018): a scaffolded capability runs as written,
 * so it can be tried before its texts are; but `check` says so instead of passing in silence.
 * Here, beside the pattern, for the parse stage and AGENTS.md's rule alike.
 */
export function checkNewPlaceholder(file: string, text: string | undefined): Diagnostic[] {
  const at = text === undefined ? undefined : newPlaceholderAt(text);
  if (!at) return [];
  return [diag('ZG2065', { file, ...at, message: `${file} still holds the placeholder text zhin-gen new wrote` })];
}

function positionOf(text: string, at: number): { readonly line: number; readonly column: number } | undefined {
  if (at === -1) return undefined;
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}
