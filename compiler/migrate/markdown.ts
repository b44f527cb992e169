/**
 * Markdown with YAML front matter (`.tool.md`, `.agent.md`, `skills/<x>.md`, SKILL.md): the data,
 * where each key is written, and the body, without changing a byte of what migrate keeps.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { containsItself } from '../parse/skill-md.js';
import { lineColumn } from './source.js';

export interface FrontMatter {
  /** The parsed mapping (plain values). */
  readonly data: Readonly<Record<string, unknown>>;
  /** Line (1-based) of each top-level key. */
  readonly keyLines: Readonly<Record<string, number>>;
  /** Offset of the first character of the YAML text, and of the line after the closing `---`. */
  readonly yamlStart: number;
  readonly bodyStart: number;
  /** The body with leading blank lines removed. */
  readonly body: string;
}

export type FrontMatterResult =
  | { readonly ok: true; readonly value: FrontMatter }
  | { readonly ok: false; readonly reason: string; readonly line: number };

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

export function readFrontMatter(text: string): FrontMatterResult {
  const open = OPEN.exec(text);
  if (!open) return { ok: false, reason: 'it has no YAML front matter (a first line `---`)', line: 1 };
  const yamlStart = open[0].length;
  const close = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(yamlStart);
  const match = close.exec(rest);
  if (!match) return { ok: false, reason: 'its front matter is not closed by a `---` line', line: 1 };
  const yamlText = rest.slice(0, match.index);
  const bodyStart = yamlStart + match.index + match[0].length;
  const doc = parseDocument(yamlText, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    return {
      ok: false,
      reason: `its front matter is not valid YAML (${error.message.split('\n')[0]})`,
      line: lineColumn(text, yamlStart + (error.pos[0] ?? 0)).line,
    };
  }
  if (!isMap(doc.contents)) return { ok: false, reason: 'its front matter is not a mapping', line: 2 };
  // No prototype: a key named `__proto__` or `constructor` is a line like any other.
  const keyLines: Record<string, number> = Object.create(null);
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range)
      keyLines[String(pair.key.value)] = lineColumn(text, yamlStart + pair.key.range[0]).line;
  }
  let data: Record<string, unknown>;
  try {
    data = doc.toJS() as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'its front matter expands too many YAML aliases', line: 2 };
  }
  if (containsItself(data))
    return { ok: false, reason: 'its front matter holds a YAML alias inside its own anchor (a cycle)', line: 2 };
  return {
    ok: true,
    value: { data, keyLines, yamlStart, bodyStart, body: text.slice(bodyStart).replace(/^(?:[ \t]*\r?\n)+/, '') },
  };
}

/** Source ranges of the string entries of a top-level sequence key (`tools: [a, b]`), for rewriting names. */
export function sequenceEntries(text: string, key: string): { value: string; start: number; end: number }[] {
  const open = OPEN.exec(text);
  if (!open) return [];
  const yamlStart = open[0].length;
  const match = /^---[ \t]*(?:\r?\n|$)/m.exec(text.slice(yamlStart));
  if (!match) return [];
  const doc = parseDocument(text.slice(yamlStart, yamlStart + match.index));
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [];
  const node = doc.contents.get(key, true);
  if (!isSeq(node)) return [];
  const out: { value: string; start: number; end: number }[] = [];
  for (const item of node.items) {
    if (isScalar(item) && typeof item.value === 'string' && item.range)
      out.push({ value: item.value, start: yamlStart + item.range[0], end: yamlStart + item.range[1] });
  }
  return out;
}

/** A YAML scalar for a plain name: unquoted when that reads back as the same string. */
export function yamlName(name: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name) && !/^(?:true|false|null|yes|no|on|off|~)$/i.test(name)
    ? name
    : JSON.stringify(name);
}
