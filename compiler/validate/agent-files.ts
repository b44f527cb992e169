/**
 * The sub-agent directory contract (docs/authoring.md): agents/<name>/ holds agent.json, system.md,
 * boundaries.md and conventions.md (non-empty), optionally workflows/, tools/, skills/, hooks/,
 * knowledge/; conventions.md extends the plugin's AGENTS.md and must not restate its headings.
 *
 * Pure: the scanner passes the directory listing and the markdown texts it read.
 */
import { compareDiagnostics, compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import { joinPosix, migratePlaceholderAt, stripBom } from '../parse/manifest-values.js';
import { earlierAgentDirectory } from '../scan/earlier-layout.js';

// ── types ─────────────────────────────────────────────────────────────────────

export const REQUIRED_AGENT_FILES = ['agent.json', 'system.md', 'boundaries.md', 'conventions.md'] as const;
export const REQUIRED_AGENT_MARKDOWN = ['system.md', 'boundaries.md', 'conventions.md'] as const;
export const OPTIONAL_AGENT_FOLDERS = ['workflows', 'tools', 'skills', 'hooks', 'knowledge'] as const;
export type AgentMarkdownFile = (typeof REQUIRED_AGENT_MARKDOWN)[number];

export interface DirectoryEntry {
  readonly name: string;
  readonly isDirectory: boolean;
}

export interface AgentDirectoryInput {
  /** POSIX path of the agent directory relative to the project root, e.g. `agents/reviewer`. */
  readonly dir: string;
  /** The directory's own entries (not recursive). */
  readonly entries: readonly DirectoryEntry[];
  /** Text of each markdown file that could be read; undefined when missing or unreadable. */
  readonly files: Readonly<Record<AgentMarkdownFile, string | undefined>>;
  /** The plugin's root AGENTS.md, when it exists. */
  readonly rootAgentsMd?: { readonly file: string; readonly text: string };
}

export interface MarkdownHeading {
  /** Heading text as written, without the # markers. */
  readonly text: string;
  readonly level: number;
  /** 1-based line and column of the heading (the first "#" or the setext text). */
  readonly line: number;
  readonly column: number;
}

// ── validation ────────────────────────────────────────────────────────────────

export function validateAgentDirectory(input: AgentDirectoryInput): Diagnostic[] {
  const { dir, entries, files, rootAgentsMd } = input;
  const diagnostics: Diagnostic[] = [];
  const agentName = dir.split('/').pop() ?? dir;
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  // The earlier agent.ts + instructions.md form is one construct to convert, not four missing files.
  const earlier = earlierAgentDirectory(dir, entries);
  if (earlier) return [earlier];

  for (const required of REQUIRED_AGENT_FILES) {
    const entry = byName.get(required);
    if (!entry) {
      diagnostics.push(diag('ZG4014', { file: dir, message: `agent "${agentName}" is missing ${required}` }));
    } else if (entry.isDirectory) {
      diagnostics.push(
        diag('ZG4014', {
          file: joinPosix(dir, required),
          message: `agent "${agentName}": ${required} is a directory, expected a file`,
        }),
      );
    }
  }

  for (const name of REQUIRED_AGENT_MARKDOWN) {
    const entry = byName.get(name);
    const text = files[name];
    // Missing files were reported above; unreadable ones are the scanner's (ZG1006).
    if (!entry || entry.isDirectory || text === undefined) continue;
    if (stripBom(text).trim() === '') {
      diagnostics.push(
        diag('ZG4015', { file: joinPosix(dir, name), message: `${name} of agent "${agentName}" is empty` }),
      );
    }
    const placeholder = migratePlaceholderAt(stripBom(text));
    if (placeholder)
      diagnostics.push(
        diag('ZG4018', {
          file: joinPosix(dir, name),
          ...placeholder,
          message: `${name} of agent "${agentName}" is still the placeholder zhin-gen migrate wrote`,
        }),
      );
  }

  const sorted = [...entries].sort((a, b) => compareStrings(a.name, b.name));
  for (const entry of sorted) {
    const isRequired = (REQUIRED_AGENT_FILES as readonly string[]).includes(entry.name);
    const isFolder = (OPTIONAL_AGENT_FOLDERS as readonly string[]).includes(entry.name);
    if (isRequired) continue;
    if (isFolder && entry.isDirectory) continue;
    const message = isFolder
      ? `"${entry.name}" in agent "${agentName}" is a file; ${entry.name}/ must be a folder`
      : `unexpected ${entry.isDirectory ? 'folder' : 'file'} "${entry.name}" in agent "${agentName}"; an agent directory holds ${REQUIRED_AGENT_FILES.join(', ')} and the folders ${OPTIONAL_AGENT_FOLDERS.map((f) => `${f}/`).join(', ')}`;
    diagnostics.push(diag('ZG1004', { file: joinPosix(dir, entry.name), message }));
  }

  const conventionsEntry = byName.get('conventions.md');
  const conventions = files['conventions.md'];
  if (conventionsEntry && !conventionsEntry.isDirectory) {
    const conventionsFile = joinPosix(dir, 'conventions.md');
    // A missing AGENTS.md is reported once per plugin by validateMainAgent (listing every agent).
    if (rootAgentsMd && conventions !== undefined) {
      diagnostics.push(...restatedHeadings(conventionsFile, conventions, rootAgentsMd));
    }
  }
  return diagnostics.sort(compareDiagnostics);
}

/** ZG4017: conventions.md headings equal (case/whitespace-insensitively, any level) to AGENTS.md's. */
function restatedHeadings(
  file: string,
  conventions: string,
  agentsMd: { readonly file: string; readonly text: string },
): Diagnostic[] {
  const main = new Map<string, MarkdownHeading>();
  for (const heading of markdownHeadings(agentsMd.text)) {
    const key = headingKey(heading.text);
    if (!main.has(key)) main.set(key, heading);
  }
  const out: Diagnostic[] = [];
  for (const heading of markdownHeadings(conventions)) {
    const original = main.get(headingKey(heading.text));
    if (!original) continue;
    out.push(
      diag('ZG4017', {
        file,
        line: heading.line,
        column: heading.column,
        message: `conventions.md restates the AGENTS.md heading "${original.text}" (AGENTS.md line ${original.line}); extend AGENTS.md instead of redefining its sections`,
        related: [
          {
            file: agentsMd.file,
            line: original.line,
            column: original.column,
            message: `AGENTS.md heading "${original.text}"`,
          },
        ],
      }),
    );
  }
  return out;
}

function headingKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

// ── markdown headings ─────────────────────────────────────────────────────────

const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** List items and block quotes end a paragraph (their own text is never a top-level heading). */
const INTERRUPTS_PARAGRAPH = /^ {0,3}(?:[-*+]|\d{1,9}[.)]|>)(?:[ \t]|$)/;
/** Indented code: cannot start a paragraph, but continues one (CommonMark). */
const INDENTED_CODE = /^(?: {4}|\t)/;

/**
 * ATX (`## Title`) and setext (`Title` + `===`/`---`) headings, skipping fenced code blocks.
 * Enough CommonMark for comparing section titles; not a full Markdown parser.
 */
export function markdownHeadings(source: string): MarkdownHeading[] {
  const lines = stripBom(source).split(/\r?\n/);
  const headings: MarkdownHeading[] = [];
  let fence: { char: string; length: number } | undefined;
  // The paragraph directly above the current line: its text becomes a setext heading's title.
  let paragraph: { lines: string[]; index: number } | undefined;
  lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (
        fenceMatch &&
        fenceMatch[1]![0] === fence.char &&
        fenceMatch[1]!.length >= fence.length &&
        line.trim() === fenceMatch[1]
      )
        fence = undefined;
      paragraph = undefined;
      return;
    }
    if (
      fenceMatch &&
      !(fenceMatch[1]![0] === '`' && line.slice(line.indexOf('`') + fenceMatch[1]!.length).includes('`'))
    ) {
      fence = { char: fenceMatch[1]![0]!, length: fenceMatch[1]!.length };
      paragraph = undefined;
      return;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const text = atx[3]!
        .trim()
        .replace(/(?:^|[ \t]+)#+$/, '')
        .trim();
      if (text !== '') headings.push({ text, level: atx[2]!.length, line: index + 1, column: atx[1]!.length + 1 });
      paragraph = undefined;
      return;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline && paragraph) {
      const indent = /^ */.exec(paragraph.lines[0]!)![0].length;
      const text = paragraph.lines.map((l) => l.trim()).join(' ');
      headings.push({ text, level: underline[1]![0] === '=' ? 1 : 2, line: paragraph.index + 1, column: indent + 1 });
      paragraph = undefined;
      return;
    }
    // A "---" with no paragraph above is a thematic break, not text.
    if (line.trim() === '' || underline || INTERRUPTS_PARAGRAPH.test(line) || (!paragraph && INDENTED_CODE.test(line)))
      paragraph = undefined;
    else if (paragraph) paragraph.lines.push(line);
    else paragraph = { lines: [line], index };
  });
  return headings;
}
