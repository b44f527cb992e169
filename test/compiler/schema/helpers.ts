/**
 * Test helpers for the schema stage: real files in a temp dir under test/tmp/, parsed the way the
 * parse stage does it (one `ts.createSourceFile`, the `inputSchema` value handed to the extractor).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { extractSchemaSnippet, type SchemaModuleCache } from '../../../compiler/schema/extract.js';
import type { SchemaRequest, SchemaSnippet } from '../../../compiler/schema/types.js';

const TMP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tmp');

const created: string[] = [];

/** Removes the project dirs this test file created (call from afterAll). */
export function cleanup(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Creates a fresh project dir with the given files (POSIX relative paths → contents). */
export function project(files: Record<string, string>): string {
  fs.mkdirSync(TMP, { recursive: true });
  const root = fs.mkdtempSync(path.join(TMP, 'schema-'));
  created.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
  return root;
}

export function readFile(abs: string): string | undefined {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

export interface Extracted {
  readonly request: SchemaRequest;
  readonly snippet?: SchemaSnippet;
}

/**
 * Parses `rel` under `root`, finds `inputSchema` in the file and builds the stage request.
 * `translate` false (the default here) keeps the schema on the evaluation path these helpers were
 * written for; the static translation has its own tests (static.test.ts).
 */
export function extract(root: string, rel: string, cache?: SchemaModuleCache, translate = false): Extracted {
  const absPath = path.join(root, rel);
  const text = fs.readFileSync(absPath, 'utf8');
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let value: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (value) return;
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'inputSchema')
      value = node.initializer;
    else if (ts.isShorthandPropertyAssignment(node) && node.name.text === 'inputSchema') value = node.name;
    else ts.forEachChild(node, visit);
  };
  visit(sf);
  const snippet = value
    ? extractSchemaSnippet(sf, value, { absPath, readFile, static: translate, ...(cache ? { cache } : {}) })
    : undefined;
  const pos = value ? sf.getLineAndCharacterOfPosition(value.getStart(sf)) : { line: 0, character: 0 };
  return {
    ...(snippet ? { snippet } : {}),
    request: {
      id: rel,
      file: rel,
      absPath,
      line: pos.line + 1,
      column: pos.character + 1,
      ...(snippet ? { snippet } : {}),
    },
  };
}

/** A tool entry file around an `inputSchema` expression. */
export function tool(imports: string, schema: string, before = ''): string {
  return [
    "import { defineAgentTool } from '@zhin.js/tool';",
    imports,
    before,
    'export default defineAgentTool({',
    "  description: 'test tool',",
    `  inputSchema: ${schema},`,
    '  async execute(input) {',
    '    return input;',
    '  },',
    '});',
    '',
  ].join('\n');
}
