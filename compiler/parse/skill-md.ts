/**
 * SKILL.md reader (docs/authoring.md): YAML front matter between "---" lines + a Markdown body. This file
 * only reads: the delimiters, the YAML syntax, duplicate and non-plain keys. What the keys must
 * hold is compiler/validate/skill.ts's job (a schema plus the rules a schema cannot say).
 *
 * Pure: the caller passes the file text, so results can be cached by content hash and tested
 * without a file system. Positions are those of the original file: the BOM is not a column (as
 * in editors) and CRLF → LF keeps every line and column unchanged, because "\r" only ever sits at
 * the end of a line.
 */
import type { Document, Node as YamlNode } from 'yaml';
import { lazyRequire } from '../util/lazy.js';
import { firstTooDeep, MAX_NESTING } from './depth.js';
import {
  compareDiagnostics,
  diag,
  lineStarts,
  positionAt,
  type Diagnostic,
  type DiagnosticCode,
  type SourceLocation,
} from '../diagnostics.js';
import { describeValue, stripBom } from './manifest-values.js';

// ── types ─────────────────────────────────────────────────────────────────────

export interface SkillMdInput {
  /** POSIX path relative to the project root, used in diagnostics. */
  readonly file: string;
  readonly text: string;
  /** Name of the skill directory: the skill's identity, which `name` must equal. */
  readonly dirName: string;
}

/** Where a key and its value are written. */
export interface SkillPlace {
  /** Absent for sequence entries. */
  readonly key?: SourceLocation;
  readonly value: SourceLocation;
}

/** A SKILL.md whose front matter is a readable YAML mapping, not yet validated. */
export interface SkillDocument {
  readonly file: string;
  readonly dirName: string;
  /**
   * Every plain key with its value as plain data; the first occurrence of a duplicated key wins.
   * `null` for a key written with no value or `~`.
   */
  readonly data: Readonly<Record<string, unknown>>;
  /** Keys whose value could not be expanded (too many YAML aliases); `null` in `data`. */
  /** Keys whose value could not be read, and why (the validator reports a known one). */
  readonly unreadable: Readonly<Record<string, string>>;
  /**
   * Positions by JSON Pointer into `data`, one level below each key: `/tools`, `/tools/1`,
   * `/metadata/version` (`~1` escapes "/", `~0` escapes "~", as in ajv's instancePath).
   */
  readonly places: Readonly<Record<string, SkillPlace>>;
  /** Body with BOM removed, CRLF → LF, leading blank lines dropped. */
  readonly instructions: string;
  /** True when the body holds nothing but whitespace. */
  readonly bodyBlank: boolean;
  /** The opening "---" of the front matter. */
  readonly loc: SourceLocation;
  /** The closing "---". */
  readonly end: SourceLocation;
}

export interface SkillMdResult {
  /** Present whenever the front matter is a readable mapping, even with duplicate keys. */
  readonly document?: SkillDocument;
  readonly diagnostics: Diagnostic[];
}

// ── reader ────────────────────────────────────────────────────────────────────

const DELIMITER = /^---[ \t]*$/m;

const yaml = lazyRequire<typeof import('yaml')>('yaml');

export function parseSkillMd(input: SkillMdInput): SkillMdResult {
  try {
    return parse(input);
  } catch (error) {
    // Bad input must never stop the run; a throw here is a bug in this parser or in yaml.
    const message = error instanceof Error ? error.message : String(error);
    return { diagnostics: [diag('ZG9001', { file: input.file, message: `SKILL.md could not be parsed: ${message}` })] };
  }
}

/** A JSON Pointer segment, escaped the way ajv writes instancePath. */
export function pointerSegment(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Whether a value read from YAML holds itself: yaml builds a cycle for an alias inside its own
 * anchor's value (`&m {self: *m}`), which no JSON (and no manifest) can hold.
 */
export function containsItself(value: unknown, open = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (open.has(value)) return true;
  open.add(value);
  const inner = value instanceof Map ? [...value.keys(), ...value.values()] : Object.values(value);
  const found = inner.some((v) => containsItself(v, open));
  open.delete(value);
  return found;
}

/** The YAML value of a node, or undefined when yaml refuses (e.g. an alias bomb). */
function toJS(node: YamlNode, doc: Document): unknown {
  try {
    return node.toJS(doc);
  } catch {
    return undefined;
  }
}

function parse(input: SkillMdInput): SkillMdResult {
  const { isAlias, isMap, isScalar, isSeq, parseDocument } = yaml();
  const { file, dirName } = input;
  // CRLF and CR-only line ends (as AGENTS.md is read): YAML counts a lone CR as a line break too.
  const text = stripBom(input.text).replace(/\r\n?/g, '\n');
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
  // Warnings are reported below as diagnostics, never printed by yaml on the process's stderr.
  // Duplicate keys are found by checkKeys below, in one pass: yaml's own `uniqueKeys` compares
  // every key with every other (20,000 keys: 3.4 s).
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
  for (const error of doc.errors) {
    // Nesting without brackets (`- - - …`): yaml stopped itself; say so plainly.
    if (error.code === 'RESOURCE_EXHAUSTION' && /call stack/i.test(error.message))
      report('ZG4011', at(error.pos[0]), 'the front matter is nested too deeply to be read');
    else report('ZG4001', at(error.pos[0]), `invalid YAML in the front matter: ${error.message}`);
  }
  // What yaml only warns about (an unresolved tag such as `!!js/function`, kept as its text):
  // another agent's YAML reader refuses it, or reads something else.
  for (const warning of doc.warnings)
    report('ZG4001', at(warning.pos[0]), `unsupported YAML in the front matter: ${warning.message}`);
  if (doc.errors.length > 0) return { diagnostics };

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

  checkKeys(root, doc as Document, yamlText, (node, message) => report('ZG4001', at(node?.range?.[0] ?? 0), message));

  // No prototype: a `__proto__` key is one more unknown key, not a prototype to set.
  const data: Record<string, unknown> = Object.create(null);
  const unreadable: Record<string, string> = Object.create(null);
  const places: Record<string, SkillPlace> = {};
  const resolve = (written: YamlNode | null | undefined): YamlNode | null =>
    (isAlias(written) ? written.resolve(doc as Document) : written) ?? null;
  const startOf = (node: YamlNode | null | undefined, fallback: SourceLocation): SourceLocation =>
    node?.range ? at(node.range[0]) : fallback;

  for (const pair of root.items) {
    const keyNode = pair.key as YamlNode | null;
    const keyLoc = at(keyNode?.range?.[0] ?? 0);
    if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
      report('ZG4004', keyLoc, 'a front matter key must be a plain name; this key is ignored');
      continue;
    }
    const key = String(keyNode.value);
    // The first occurrence wins; a duplicate is reported by checkKeys.
    if (Object.hasOwn(data, key)) continue;
    const written = pair.value as YamlNode | null;
    const node = resolve(written);
    const pointer = `/${pointerSegment(key)}`;
    places[pointer] = { key: keyLoc, value: startOf(written, keyLoc) };
    if (node === null || (isScalar(node) && node.value === null)) {
      data[key] = null;
      continue;
    }
    const value = toJS(node, doc as Document);
    const why =
      value === undefined
        ? 'it expands too many YAML aliases'
        : containsItself(value)
          ? 'an alias in it refers to a value that holds the alias (`&m {self: *m}`), so it never ends'
          : undefined;
    if (why !== undefined) {
      // Never kept: every later stage (the unit's hash, the manifest) walks the value.
      data[key] = null;
      unreadable[key] = why;
      continue;
    }
    data[key] = value;
    // One level of positions below the key: list entries and mapping keys (metadata), where the
    // validator reports a bad entry; a position is where the entry is written, even through an alias.
    if (isSeq(node)) {
      node.items.forEach((item, index) => {
        places[`${pointer}/${index}`] = { value: startOf(item as YamlNode | null, places[pointer]!.value) };
      });
    } else if (isMap(node)) {
      for (const entry of node.items) {
        const entryKey = entry.key as YamlNode | null;
        if (!isScalar(entryKey) || entryKey.value === null || typeof entryKey.value === 'object') continue;
        const entryLoc = startOf(entryKey, places[pointer]!.value);
        places[`${pointer}/${pointerSegment(String(entryKey.value))}`] ??= {
          key: entryLoc,
          value: startOf(entry.value as YamlNode | null, entryLoc),
        };
      }
    }
  }

  const document: SkillDocument = {
    file,
    dirName,
    data,
    unreadable,
    places,
    instructions: body.replace(/^(?:[ \t]*\n)+/, ''),
    bodyBlank: body.trim() === '',
    loc: start,
    end: locAt(closeOffset),
  };
  return { document, diagnostics: diagnostics.sort(compareDiagnostics) };
}

/**
 * Keys as the manifest's JSON will have them: below the top level (where the value is kept, as
 * in `metadata`) a key must be a plain name — a list, a mapping or null as a key would be turned
 * into text — and at every level two keys must not become the same text (`true` and `"true"`,
 * `1` and `"1"`: yaml's own check sees two keys, JSON keeps one).
 */
function checkKeys(
  root: YamlNode,
  doc: Document,
  source: string,
  report: (node: YamlNode | null | undefined, message: string) => void,
): void {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  /** A key as written (`.inf`, `*k`), not as JSON would print its value. */
  const written = (node: YamlNode | null): string =>
    node?.range ? source.slice(node.range[0], node.range[1]).trim() : String(node);
  const stack: { node: YamlNode; path: string }[] = [{ node: root, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const where = path === '' ? 'the front matter' : `\`${path}\``;
    if (isSeq(node))
      node.items.forEach((item, index) => {
        if (isMap(item) || isSeq(item)) stack.push({ node: item as YamlNode, path: `${path}[${index}]` });
      });
    if (!isMap(node)) continue;
    const seen = new Map<string, YamlNode>();
    for (const pair of node.items) {
      const writtenKey = pair.key as YamlNode | null;
      // An alias key (`*k`) is the key it refers to.
      const key = isAlias(writtenKey) ? (writtenKey.resolve(doc) ?? null) : writtenKey;
      const plain = isScalar(key) && key.value !== null && typeof key.value !== 'object';
      if (!plain) {
        // A top-level key that is no name is reported (and ignored) where the keys are read.
        if (path !== '')
          report(
            writtenKey ?? (pair.value as YamlNode | null),
            `a key in ${where} must be a plain name, not ${isSeq(key) ? 'a list' : isMap(key) ? 'a mapping' : 'null'}`,
          );
        continue;
      }
      const name = String((key as { value: unknown }).value);
      const earlier = seen.get(name);
      const value = (key as { value: unknown }).value;
      if (earlier === undefined) seen.set(name, key as YamlNode);
      else if ((earlier as { value: unknown }).value === value && !isAlias(writtenKey))
        report(writtenKey, `duplicate key ${JSON.stringify(name)} in ${where}; YAML keys must be unique`);
      else
        report(
          writtenKey,
          `duplicate key ${JSON.stringify(name)} in ${where}: written as ${written(earlier)} and ${written(writtenKey)}, which are one key in JSON`,
        );
      const child = pair.value as YamlNode | null;
      if (isMap(child) || isSeq(child)) stack.push({ node: child, path: path === '' ? name : `${path}.${name}` });
    }
  }
}
