/**
 * Fenced code blocks of the documentation, with the `<!-- snippet: key=value … -->` directive
 * written on the line right before a fence (blank lines between are allowed). The docs test
 * (snippets.test.ts) checks every block by its info string.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Snippet {
  /** Document path relative to the repository, POSIX (`docs/runtime.md`). */
  readonly doc: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** First word of the info string; '' when the fence has none. */
  readonly lang: string;
  /** The block's text (lines between the fences, LF, final newline). */
  readonly code: string;
  readonly directives: Readonly<Record<string, string>>;
}

/** `README.md` and every `docs/*.md` (the documents the package ships). */
export function documents(repo: string): readonly string[] {
  const docs = readdirSync(join(repo, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const DIRECTIVE = /^\s*<!--\s*snippet:(.*?)-->\s*$/;

/** `key=value key2=a,b` (a bare `key` means `key=true`). Throws on a malformed pair. */
export function parseDirective(text: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z]+)(?:=(\S+))?$/.exec(pair);
    if (!match?.[1]) throw new Error(`${where}: malformed snippet directive "${pair}" (write key=value)`);
    out[match[1]] = match[2] ?? 'true';
  }
  return out;
}

/** Every fenced block of one document (CommonMark fences: ``` or ~~~, closed by the same run). */
export function extractSnippets(doc: string, text: string): Snippet[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const snippets: Snippet[] = [];
  let pending: Record<string, string> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      pending = parseDirective(directive[1] ?? '', `${doc}:${i + 1}`);
      continue;
    }
    const open = FENCE.exec(line);
    if (!open) {
      // A directive belongs to the next fence only; blank lines may sit between them.
      if (line.trim() !== '') pending = undefined;
      continue;
    }
    const fence = open[1] ?? '```';
    const lang = (open[2] ?? '').trim().split(/\s+/)[0] ?? '';
    const body: string[] = [];
    let j = i + 1;
    const closes = (l: string): boolean =>
      new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(l);
    while (j < lines.length && !closes(lines[j] ?? '')) body.push(lines[j++] ?? '');
    if (j >= lines.length) throw new Error(`${doc}:${i + 1}: code block is never closed`);
    snippets.push({
      doc,
      line: i + 1,
      lang,
      code: body.length ? `${body.join('\n')}\n` : '',
      directives: pending ?? {},
    });
    pending = undefined;
    i = j;
  }
  return snippets;
}

export function readSnippets(repo: string): Snippet[] {
  return documents(repo).flatMap((doc) => extractSnippets(doc, readFileSync(join(repo, doc), 'utf8')));
}

/** `docs/runtime.md:51` plus an offset into the block (1 = its first line). */
export function where(snippet: Snippet, blockLine?: number): string {
  return `${snippet.doc}:${blockLine === undefined ? snippet.line : snippet.line + blockLine}`;
}
