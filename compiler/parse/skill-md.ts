/**
 * SKILL.md parser (SPEC §3.2): YAML front matter between "---" lines + a Markdown body.
 *
 * Pure: the caller passes the file text, so results can be cached by content hash and tested
 * without a file system. Every diagnostic points at the offending key or value. Positions are
 * those of the original file: the BOM is not a column (as in editors) and CRLF → LF keeps every
 * line and column unchanged, because "\r" only ever sits at the end of a line.
 */
import type { Document, Node as YamlNode } from 'yaml';
import { lazyRequire } from '../util/lazy.js';
import { firstTooDeep, MAX_NESTING } from './depth.js';
import type { ChannelScope } from '@zhin-gen/runtime';
import {
  compareDiagnostics,
  diag,
  lineStarts,
  positionAt,
  type Diagnostic,
  type DiagnosticCode,
  type SourceLocation,
} from '../diagnostics.js';
import {
  CHANNEL_SCOPES,
  MAX_DESCRIPTION_CHARS,
  codePointLength,
  describeValue,
  permitProblem,
  stripBom,
} from './manifest-values.js';

// ── types ─────────────────────────────────────────────────────────────────────

export const SKILL_KEYS = [
  'name',
  'description',
  'tools',
  'platforms',
  'scopes',
  'permissions',
  'keywords',
  'tags',
  'always',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
] as const;
export type SkillKey = (typeof SKILL_KEYS)[number];

export interface SkillMdInput {
  /** POSIX path relative to the project root, used in diagnostics. */
  readonly file: string;
  readonly text: string;
  /** Name of the skill directory: the skill's identity, which `name` must equal. */
  readonly dirName: string;
}

export interface SkillMdOptions {
  /** Custom permits from the config: exact strings, or regular expressions written `/src/flags`. */
  readonly customPermits?: readonly string[];
}

import type { NamedEntry } from './manifest-values.js';
export type { NamedEntry };

export interface ParsedSkill {
  /** The directory name (identity, SPEC §4); equals the front matter `name` when valid. */
  readonly name: string;
  /** Trimmed. */
  readonly description: string;
  /** `tools` entries (qualifiedNames) with their positions, resolved later. */
  readonly declaredTools: readonly NamedEntry[];
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly always: boolean;
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly allowedTools?: readonly string[];
  /** Body with BOM removed, CRLF → LF, leading blank lines dropped. */
  readonly instructions: string;
  /** The opening "---" of the front matter. */
  readonly loc: SourceLocation;
  /** Where each present key is written, for later diagnostics (e.g. unknown platforms). */
  readonly keyLocs: Readonly<Partial<Record<SkillKey, SourceLocation>>>;
  /** Positions of the valid `platforms` entries, parallel to `platforms`. */
  readonly platformLocs: readonly SourceLocation[];
}

export interface SkillMdResult {
  /** Present whenever the front matter is a readable mapping, even with field errors. */
  readonly skill?: ParsedSkill;
  readonly diagnostics: Diagnostic[];
}

// ── parser ────────────────────────────────────────────────────────────────────

const DELIMITER = /^---[ \t]*$/m;

const yaml = lazyRequire<typeof import('yaml')>('yaml');

export function parseSkillMd(input: SkillMdInput, options: SkillMdOptions = {}): SkillMdResult {
  try {
    return parse(input, options);
  } catch (error) {
    // Bad input must never stop the run; a throw here is a bug in this parser or in yaml.
    const message = error instanceof Error ? error.message : String(error);
    return { diagnostics: [diag('ZG9001', { file: input.file, message: `SKILL.md could not be parsed: ${message}` })] };
  }
}

/** The YAML value of a node, or undefined when yaml refuses (e.g. an alias bomb). */
function toJS(node: YamlNode, doc: Document): unknown {
  try {
    return node.toJS(doc);
  } catch {
    return undefined;
  }
}

function parse(input: SkillMdInput, options: SkillMdOptions): SkillMdResult {
  const { isAlias, isMap, isScalar, isSeq, parseDocument } = yaml();
  const { file, dirName } = input;
  const text = stripBom(input.text).replace(/\r\n/g, '\n');
  const starts = lineStarts(text);
  const locAt = (offset: number): SourceLocation => ({ file, ...positionAt(starts, offset) });
  const diagnostics: Diagnostic[] = [];
  const report = (code: DiagnosticCode, at: SourceLocation, message: string): void => {
    diagnostics.push(diag(code, { ...at, message }));
  };
  const start = locAt(0);

  const firstEnd = text.indexOf('\n');
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (!/^---[ \t]*$/.test(firstLine)) {
    const found =
      text.trim() === '' ? 'the file is empty' : `the first line is ${JSON.stringify(firstLine.slice(0, 60))}`;
    report('ZG4001', start, `SKILL.md must start with a "---" line opening the YAML front matter; ${found}`);
    return { diagnostics };
  }
  const yamlStart = firstEnd + 1;
  const close = firstEnd === -1 ? null : DELIMITER.exec(text.slice(yamlStart));
  if (!close) {
    report('ZG4001', start, 'the front matter opened on line 1 is never closed by a "---" line');
    return { diagnostics };
  }
  const closeOffset = yamlStart + close.index;
  const yamlText = text.slice(yamlStart, closeOffset);
  const lineEnd = text.indexOf('\n', closeOffset);
  const body = lineEnd === -1 ? '' : text.slice(lineEnd + 1);

  const at = (offset: number): SourceLocation => locAt(yamlStart + offset);
  // yaml recurses once per level (it reports running out of stack as RESOURCE_EXHAUSTION, at
  // wherever the stack ended): flow collections nested deeper than any front matter needs are
  // refused first, at the first bracket too deep.
  const deep = firstTooDeep(yamlText, 'yaml');
  if (deep !== undefined) {
    report(
      'ZG4011',
      at(deep),
      `the front matter is nested too deeply to be read (more than ${MAX_NESTING} levels of brackets)`,
    );
    return { diagnostics };
  }
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  let fatal = false;
  for (const error of doc.errors) {
    if (error.code === 'RESOURCE_EXHAUSTION' && /call stack/i.test(error.message)) {
      // Nesting without brackets (`- - - …`): yaml stopped itself; say so plainly.
      fatal = true;
      report('ZG4011', at(error.pos[0]), 'the front matter is nested too deeply to be read');
    } else if (error.code === 'DUPLICATE_KEY') {
      const pair = isMap(doc.contents)
        ? doc.contents.items.find((p) => (p.key as YamlNode | null)?.range?.[0] === error.pos[0])
        : undefined;
      const key = isScalar(pair?.key)
        ? String(pair.key.value)
        : yamlText.slice(error.pos[0]).split(/[:\n]/, 1)[0]!.trim();
      report(
        'ZG4001',
        at(error.pos[0]),
        `duplicate key ${JSON.stringify(key)} in the front matter; YAML keys must be unique`,
      );
    } else {
      fatal = true;
      report('ZG4001', at(error.pos[0]), `invalid YAML in the front matter: ${error.message}`);
    }
  }
  if (fatal) return { diagnostics };

  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) {
    report('ZG4001', start, 'the front matter is empty; it needs at least `name` and `description`');
    return { diagnostics };
  }
  if (!isMap(root)) {
    report(
      'ZG4001',
      at(root.range?.[0] ?? 0),
      `the front matter must be a mapping of keys, got ${describeValue(toJS(root, doc as Document))}`,
    );
    return { diagnostics };
  }

  const fields = new Map<SkillKey, { keyLoc: SourceLocation; node: YamlNode | null; valueLoc: SourceLocation }>();
  for (const pair of root.items) {
    const keyNode = pair.key as YamlNode | null;
    const keyLoc = at(keyNode?.range?.[0] ?? 0);
    if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
      report('ZG4004', keyLoc, 'a front matter key must be a plain name; this key is ignored');
      continue;
    }
    const key = String(keyNode.value);
    if (!(SKILL_KEYS as readonly string[]).includes(key)) {
      report(
        'ZG4004',
        keyLoc,
        `unknown key ${JSON.stringify(key)} in the SKILL.md front matter is ignored; known keys: ${SKILL_KEYS.join(', ')}`,
      );
      continue;
    }
    // The first occurrence wins; a duplicate was reported above.
    if (fields.has(key as SkillKey)) continue;
    const written = pair.value as YamlNode | null;
    const node = isAlias(written) ? (written.resolve(doc as Document) ?? null) : written;
    const valueLoc = written?.range ? at(written.range[0]) : keyLoc;
    fields.set(key as SkillKey, {
      keyLoc,
      node: node && isScalar(node) && node.value === null ? null : node,
      valueLoc,
    });
  }

  const wrongType = (key: SkillKey, expected: string, node: YamlNode, loc: SourceLocation): void =>
    report('ZG4006', loc, `\`${key}\` must be ${expected}, got ${describeValue(toJS(node, doc as Document))}`);

  const scalarString = (key: SkillKey): string | undefined => {
    const field = fields.get(key);
    if (!field?.node) return undefined;
    if (isScalar(field.node) && typeof field.node.value === 'string') return field.node.value;
    wrongType(key, 'a string', field.node, field.valueLoc);
    return undefined;
  };

  /** Non-empty string entries with positions; wrong entries are reported and skipped. */
  const stringList = (key: SkillKey, allowScalar = false): NamedEntry[] | undefined => {
    const field = fields.get(key);
    if (!field?.node) return undefined;
    const expected = allowScalar ? 'a string or an array of strings' : 'an array of strings';
    if (allowScalar && isScalar(field.node) && typeof field.node.value === 'string') {
      return [{ name: field.node.value, loc: field.valueLoc }];
    }
    if (!isSeq(field.node)) {
      wrongType(key, expected, field.node, field.valueLoc);
      return undefined;
    }
    const entries: NamedEntry[] = [];
    field.node.items.forEach((written, index) => {
      const item = isAlias(written) ? written.resolve(doc as Document) : (written as YamlNode | null);
      const loc = at((written as YamlNode | null)?.range?.[0] ?? field.node!.range?.[0] ?? 0);
      if (isScalar(item) && typeof item.value === 'string' && item.value.trim() !== '') {
        entries.push({ name: item.value, loc });
      } else {
        report(
          'ZG4006',
          loc,
          `\`${key}\` entry ${index + 1} must be a non-empty string, got ${describeValue(item ? toJS(item, doc as Document) : null)}`,
        );
      }
    });
    return entries;
  };

  // name: the identity is the directory; a different name would silently rename the skill.
  const nameField = fields.get('name');
  if (!nameField?.node) {
    report(
      'ZG4002',
      nameField?.keyLoc ?? start,
      `\`name\` is missing; it must be ${JSON.stringify(dirName)}, the skill directory name`,
    );
  } else {
    const name = scalarString('name');
    if (name !== undefined && name !== dirName) {
      report(
        'ZG4002',
        nameField.valueLoc,
        `\`name\` is ${JSON.stringify(name)} but the skill directory is ${JSON.stringify(dirName)}; they must be equal`,
      );
    }
  }

  let description = '';
  const descField = fields.get('description');
  if (!descField?.node) {
    report(
      'ZG4003',
      descField?.keyLoc ?? start,
      '`description` is missing; give 1 to 1024 characters saying when to use the skill',
    );
  } else if (!isScalar(descField.node) || typeof descField.node.value !== 'string') {
    report(
      'ZG4003',
      descField.valueLoc,
      `\`description\` must be a string, got ${describeValue(toJS(descField.node, doc as Document))}`,
    );
  } else {
    // Trimmed before counting: YAML block scalars (| and >) end with a line break nobody typed.
    const trimmed = descField.node.value.trim();
    const length = codePointLength(trimmed);
    if (length === 0) report('ZG4003', descField.valueLoc, '`description` is empty; give 1 to 1024 characters');
    else if (length > MAX_DESCRIPTION_CHARS) {
      report(
        'ZG4003',
        descField.valueLoc,
        `\`description\` is ${length} characters long; the limit is ${MAX_DESCRIPTION_CHARS}`,
      );
    } else description = trimmed;
  }

  const scopes: ChannelScope[] = [];
  for (const entry of stringList('scopes') ?? []) {
    if ((CHANNEL_SCOPES as readonly string[]).includes(entry.name)) scopes.push(entry.name as ChannelScope);
    else
      report('ZG2007', entry.loc, `unknown scope ${JSON.stringify(entry.name)}; scopes are private, group or channel`);
  }

  const permissions: string[] = [];
  for (const entry of stringList('permissions') ?? []) {
    const problem = permitProblem(entry.name, options.customPermits);
    if (problem === undefined) permissions.push(entry.name);
    else report('ZG2008', entry.loc, `permit ${JSON.stringify(entry.name)} can never pass: ${problem}`);
  }

  let always = false;
  const alwaysField = fields.get('always');
  if (alwaysField?.node) {
    if (isScalar(alwaysField.node) && typeof alwaysField.node.value === 'boolean') always = alwaysField.node.value;
    else wrongType('always', 'true or false', alwaysField.node, alwaysField.valueLoc);
  }

  let metadata: Record<string, unknown> | undefined;
  const metaField = fields.get('metadata');
  if (metaField?.node) {
    const value = isMap(metaField.node) ? toJS(metaField.node, doc as Document) : undefined;
    if (value !== undefined) metadata = value as Record<string, unknown>;
    else if (isMap(metaField.node))
      report('ZG4006', metaField.valueLoc, '`metadata` could not be read: it expands too many YAML aliases');
    else wrongType('metadata', 'a mapping', metaField.node, metaField.valueLoc);
  }

  const declaredTools = stringList('tools') ?? [];
  const platformEntries = stringList('platforms') ?? [];
  const keywords = (stringList('keywords') ?? []).map((e) => e.name);
  const tags = (stringList('tags') ?? []).map((e) => e.name);
  const license = scalarString('license');
  const compatibility = scalarString('compatibility');
  const allowedTools = stringList('allowed-tools', true)?.map((e) => e.name);

  if (body.trim() === '') {
    report(
      'ZG4005',
      locAt(closeOffset),
      'SKILL.md has no instructions below the front matter; write them as Markdown after the closing "---"',
    );
  }

  const keyLocs: Partial<Record<SkillKey, SourceLocation>> = {};
  for (const [key, field] of fields) keyLocs[key] = field.keyLoc;

  const skill: ParsedSkill = {
    name: dirName,
    description,
    declaredTools,
    platforms: platformEntries.map((e) => e.name),
    platformLocs: platformEntries.map((e) => e.loc),
    scopes,
    permissions,
    keywords,
    tags,
    always,
    ...(license !== undefined ? { license } : {}),
    ...(compatibility !== undefined ? { compatibility } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(allowedTools !== undefined ? { allowedTools } : {}),
    instructions: body.replace(/^(?:[ \t]*\n)+/, ''),
    loc: start,
    keyLocs,
  };
  return { skill, diagnostics: diagnostics.sort(compareDiagnostics) };
}
