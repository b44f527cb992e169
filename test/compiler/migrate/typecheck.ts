/**
 * Plain `tsc` over a migrated tree, as its author runs it: no alias of the seed names and no build
 * plugin, `@zhin-gen/runtime` and `zod` resolved from node_modules the way Node resolves them.
 * zhin-gen's own `check` does not type-check (a duplicate import binding or an import of a package
 * that is not installed generated cleanly), so migrate's output is checked here as well.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  types: ['node'],
};

/** Every diagnostic of the tree's TypeScript modules (generated manifests aside), as `file:line TScode message`. */
export function typeErrors(root: string): string[] {
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.gen.ts'))
    .map((e) => join(e.parentPath, e.name));
  const program = ts.createProgram(files, OPTIONS);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '(options)';
    return `${where} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
