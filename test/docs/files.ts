/**
 * Blocks that name a file of a bot (`<!-- snippet: file=tools/echo/index.ts -->`): besides
 * their own check (type-check, JSON parse), each is written at that path into a copy of the
 * example bot and the real compiler runs on it; the file must draw no diagnostic. So a
 * documented tool, plugin.ts, SKILL.md, agent.json or config file is one `zhin-gen check`
 * accepts (a config is validated by the real config loader, i.e. against the config schema).
 * Blocks naming different paths share one tree; two blocks naming the same path get two trees,
 * and a config block (zhin-gen.config.*, package.json) one of its own (it applies to every file).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { createCompiler } from '../../compiler/index.js';
import { copyFixture, removeDir } from '../helpers.js';
import { where, type Snippet } from './extract.js';

/** A config applies to the whole tree: such a block gets a tree of its own. */
const isConfig = (path: string | undefined): boolean => /^(zhin-gen\.config\.[a-z]+|package\.json)$/.test(path ?? '');

/** Groups of blocks with pairwise different paths, in document order. */
function groups(snippets: readonly Snippet[]): Snippet[][] {
  const out: Snippet[][] = [];
  for (const snippet of snippets) {
    const path = snippet.directives['file'];
    const group = isConfig(path)
      ? undefined
      : out.find((g) => !g.some((s) => s.directives['file'] === path || isConfig(s.directives['file'])));
    if (group) group.push(snippet);
    else out.push([snippet]);
  }
  return out;
}

export async function compileFileSnippets(snippets: readonly Snippet[]): Promise<string[]> {
  const problems: string[] = [];
  for (const group of groups(snippets)) {
    const root = copyFixture('example-bot', 'docs-files');
    try {
      for (const s of group) {
        const path = join(root, s.directives['file'] ?? '');
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, s.code);
      }
      const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
      for (const d of result.diagnostics) {
        const owner = group.find((s) => s.directives['file'] === d.file);
        const text = `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`;
        if (owner) problems.push(`${where(owner, d.line)}: zhin-gen: ${text}`);
        // Elsewhere in the example bot: only errors can come from the blocks (the bot's own
        // warnings are the fixture's business).
        else if (d.severity === 'error')
          problems.push(`${group.map((s) => where(s)).join(', ')} (written into the example bot): zhin-gen: ${text}`);
      }
    } finally {
      removeDir(root);
    }
  }
  return problems;
}

const errorsOf = (errors: readonly ParseError[], snippet: Snippet, code: string): string[] =>
  errors.map((e) => {
    const line = code.slice(0, e.offset).split('\n').length;
    return `${where(snippet, line)}: ${printParseErrorCode(e.error)}`;
  });

let agentSchemaValidator: ValidateFunction | undefined;

/** `json` (strict) and `jsonc` blocks; an agent.json block is validated against the shipped schema. */
export function checkJsonSnippet(snippet: Snippet, repo: string): string[] {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(snippet.code, errors, {
    allowTrailingComma: snippet.lang === 'jsonc',
    disallowComments: snippet.lang === 'json',
  });
  if (errors.length > 0) return errorsOf(errors, snippet, snippet.code);
  if (snippet.lang === 'json') {
    try {
      JSON.parse(snippet.code);
    } catch (error) {
      return [`${where(snippet)}: not strict JSON: ${(error as Error).message}`];
    }
  }
  const file = snippet.directives['file'] ?? '';
  if (!file.endsWith('agent.json')) return [];
  const problems = schemaPathProblems(snippet, value, repo);
  agentSchemaValidator ??= new Ajv2020({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(join(repo, 'compiler', 'schema', 'agent.schema.json'), 'utf8')) as object,
  );
  if (agentSchemaValidator(value)) return problems;
  return [
    ...problems,
    ...(agentSchemaValidator.errors ?? []).map(
      (e) => `${where(snippet)}: agent.schema.json: ${e.instancePath || '/'} ${e.message ?? ''}`,
    ),
  ];
}

/** A `$schema` into `node_modules/zhin-gen/…` must name a file the package ships. */
function schemaPathProblems(snippet: Snippet, value: unknown, repo: string): string[] {
  const ref = typeof value === 'object' && value !== null ? (value as { $schema?: unknown }).$schema : undefined;
  const match = typeof ref === 'string' ? /node_modules\/zhin-gen\/(.+)$/.exec(ref) : null;
  if (!match?.[1]) return [];
  const shipped = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { files?: string[] }).files ?? [];
  const top = match[1].split('/')[0] ?? '';
  return existsSync(join(repo, match[1])) && shipped.includes(top)
    ? []
    : [`${where(snippet)}: $schema names ${match[1]}, which the zhin-gen package does not ship`];
}
