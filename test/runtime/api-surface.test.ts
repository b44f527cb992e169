/**
 * The runtime package's public API, as a host or a plugin author sees it: every name each
 * subpath export declares (from the built declaration files), with its kind. The list is
 * committed beside this test (api-surface.txt) and reviewed when it changes: a name appears
 * there only on purpose. `UPDATE_GOLDEN=1 npx vitest run test/runtime/api-surface.test.ts`
 * rewrites it after an intended change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

const RUNTIME = join(REPO, 'runtime');
const EXPECTED = join(REPO, 'test', 'runtime', 'api-surface.txt');
const pkg = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
};

function kindOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const flags = target.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  return 'other';
}

function surface(): string {
  const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'string' ? undefined : target.types;
    return types ? [[subpath, join(RUNTIME, types)] as const] : [];
  });
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  );
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    lines.push(`${subpath === '.' ? '@zhin-gen/runtime' : `@zhin-gen/runtime/${subpath.slice(2)}`}`);
    if (!module) {
      lines.push('  (not built: run `node scripts/build.mjs`)');
      continue;
    }
    const names = checker
      .getExportsOfModule(module)
      .map((symbol) => `  ${kindOf(symbol, checker)} ${symbol.getName()}`)
      .sort((a, b) => (a.split(' ').pop()! < b.split(' ').pop()! ? -1 : 1));
    lines.push(...names);
  }
  return `${lines.join('\n')}\n`;
}

describe('the runtime public API', () => {
  it('is exactly the reviewed list (test/runtime/api-surface.txt)', () => {
    const actual = surface();
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(EXPECTED, actual);
    expect(existsSync(EXPECTED), 'run with UPDATE_GOLDEN=1 once to write the list').toBe(true);
    expect(actual).toBe(readFileSync(EXPECTED, 'utf8'));
  });
});
