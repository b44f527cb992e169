/**
 * Type-checks the `ts` blocks of the docs: each block is its own module file in a temp project
 * inside a compiled copy of the example bot (so `./zhin-capabilities.gen.js` is a real generated
 * manifest), one TypeScript program for all of them, strict mode. `zhin-gen`, `zhin-gen/*`,
 * `@zhin-gen/runtime` and `zod` resolve from the repository through their `types` conditions:
 * the declaration files of the build, i.e. exactly what a bot's tsc sees (and 2-3× faster than
 * type-checking the sources, which would pull in the compiler's and ts-morph's types). So the
 * build must be current (`node scripts/build.mjs`, as `npm test` runs it).
 *
 * A block may also name real exports its declarations document (`exact=` / `partial=`
 * directives): the documented declaration is then compared with the real one by assignability,
 * so an API reference that drifts from the code fails too (see compare.ts).
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { comparisonAppendix, describeComparison } from './compare.js';
import { contextPrelude } from './contexts.js';
import { REPO } from '../helpers.js';
import { where, type Snippet } from './extract.js';

/**
 * What the temp project's tsconfig says: what a strict bot project on Node uses, the options of
 * the tsconfig `zhin-gen init` writes (compiler/scaffold/project.ts) — no DOM library, whose
 * declarations would be most of what the program parses.
 */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  types: ['node'],
} as const;

interface BlockFile {
  readonly snippet: Snippet;
  readonly path: string;
  /** Lines written before the block's first line (the context prelude). */
  readonly offset: number;
  /** Lines of prelude + block: later lines belong to the comparison appendix. */
  readonly blockEnd: number;
}

const slug = (snippet: Snippet): string => `${snippet.doc.replace(/[^a-z0-9]+/gi, '-')}-L${snippet.line}`;

/** Writes every block as a module under `<bot>/snippets/` and returns each block's problems. */
export function typeCheckSnippets(snippets: readonly Snippet[], bot: string): string[] {
  const problems: string[] = [];
  for (const entry of ['dist/compiler/index.d.ts', 'dist/vite-plugin/vite.d.ts', 'runtime/dist/index.d.ts']) {
    if (!existsSync(join(REPO, entry)))
      return [
        `${entry} is missing: run \`node scripts/build.mjs\` first (ts blocks are checked against the declaration files)`,
      ];
  }
  const files: BlockFile[] = [];
  for (const snippet of snippets) {
    const dir = join(bot, 'snippets', slug(snippet));
    const path = join(dir, snippet.directives['file'] ?? 'snippet.ts');
    let prelude: string;
    let appendix: string;
    try {
      prelude = contextPrelude(snippet.directives['context']);
      appendix = comparisonAppendix(snippet);
    } catch (error) {
      problems.push(`${where(snippet)}: ${(error as Error).message}`);
      continue;
    }
    const offset = prelude === '' ? 0 : prelude.split('\n').length - 1;
    // `export {}` makes every block a module, whatever it contains (a `declare module` in a
    // script would declare an ambient module instead of augmenting the real one).
    const text = `${prelude}${snippet.code}${appendix}export {};\n`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    // The generated manifest, reachable as `./zhin-capabilities.gen.js` from the block.
    const genRel = relative(dirname(path), join(bot, 'zhin-capabilities.gen.js')).split('\\').join('/');
    writeFileSync(
      join(dirname(path), 'zhin-capabilities.gen.ts'),
      `export * from '${genRel.startsWith('.') ? genRel : `./${genRel}`}';\n`,
    );
    files.push({ snippet, path, offset, blockEnd: offset + snippet.code.split('\n').length - 1 });
  }
  // Installed as in a bot (`npm i -D zhin-gen`), so type references (`/// <reference
  // types="zhin-gen/virtual" />`) resolve as they do there, not only self-references.
  mkdirSync(join(bot, 'snippets', 'node_modules'), { recursive: true });
  symlinkSync(REPO, join(bot, 'snippets', 'node_modules', 'zhin-gen'), 'dir');
  const tsconfig = join(bot, 'snippets', 'tsconfig.json');
  writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['**/*.ts'] }, null, 2)}\n`);
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) =>
      problems.push(`tsconfig: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  });
  if (!parsed) return problems;
  for (const d of parsed.errors) problems.push(`tsconfig: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  const program = ts.createProgram({ rootNames: files.map((f) => f.path), options: parsed.options });
  const byPath = new Map(files.map((f) => [ts.sys.resolvePath(f.path), f]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    // `import("/abs/runtime/turn", { with: … }).TurnInput` is the real type: say so, shortly.
    const message = ts
      .flattenDiagnosticMessageText(d.messageText, '\n  ')
      .replace(/import\("[^"]*"(?:, \{ with: \{ "resolution-mode": "\w+" \} \})?\)\./g, 'real ');
    if (!d.file || d.start === undefined) {
      problems.push(`TS${d.code} ${message}`);
      continue;
    }
    const block = byPath.get(ts.sys.resolvePath(d.file.fileName));
    // Diagnostics of the runtime, the generated manifest etc. are other tests' business.
    if (!block) continue;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    if (line < block.offset)
      problems.push(
        `${where(block.snippet)}: in context "${block.snippet.directives['context']}": TS${d.code} ${message}`,
      );
    else if (line >= block.blockEnd) {
      const comparison = describeComparison(block.snippet.code, d.file.text.split('\n')[line] ?? '');
      problems.push(
        comparison
          ? `${where(block.snippet, comparison.line)}: documented ${comparison.name} differs from the real export (${comparison.way}): TS${d.code} ${message}`
          : `${where(block.snippet)}: comparison with the real exports: TS${d.code} ${message}`,
      );
    } else problems.push(`${where(block.snippet, line - block.offset + 1)}:${character + 1}: TS${d.code} ${message}`);
  }
  return problems;
}
