/**
 * Documented declarations compared with the real exports. A block that lists an API as
 * TypeScript declarations names the ones to compare in its directive:
 *
 *   <!-- snippet: exact=TurnInput,ToolOutcome partial=Turn from=@zhin-gen/runtime -->
 *
 * - `partial=N`: the real `N` is assignable to the documented one — everything the doc shows
 *   exists, with the documented type (the doc may leave members out).
 * - `exact=N`: both ways — also, what a reader builds from the doc (an input object, a port
 *   implementation) is accepted by the real API.
 *
 * Interfaces, type aliases and classes are compared as types (a class by its instance type),
 * functions and constants by `typeof`. Type parameters are instantiated with the documented
 * defaults on both sides (so a generic doc declaration must give its parameters defaults).
 * `from` defaults to `@zhin-gen/runtime`. The appendix is plain TypeScript appended to the
 * block's module, so a mismatch is an ordinary TypeScript error naming the member that differs.
 */
import ts from 'typescript';
import type { Snippet } from './extract.js';

type Kind = 'type' | 'value';

interface Declared {
  readonly kind: Kind;
  /** 1-based line of the declaration in the block. */
  readonly line: number;
  /** Type arguments for both sides: the documented defaults. */
  readonly args: string;
}

function declarationsOf(code: string): Map<string, Declared> {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found = new Map<string, Declared>();
  const argsOf = (params: ts.NodeArray<ts.TypeParameterDeclaration> | undefined, name: string): string => {
    if (!params?.length) return '';
    const defaults = params.map((p) => {
      if (!p.default)
        throw new Error(`type parameter ${p.name.text} of documented ${name} needs a default to be compared`);
      return p.default.getText(file);
    });
    return `<${defaults.join(', ')}>`;
  };
  const lineOf = (node: ts.Node): number => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  for (const statement of file.statements) {
    if (
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isClassDeclaration(statement)
    ) {
      const name = statement.name;
      if (name)
        found.set(name.text, { kind: 'type', line: lineOf(name), args: argsOf(statement.typeParameters, name.text) });
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      found.set(statement.name.text, { kind: 'value', line: lineOf(statement.name), args: '' });
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name)) found.set(d.name.text, { kind: 'value', line: lineOf(d.name), args: '' });
    }
  }
  return found;
}

/** The comparison an appendix line makes, for reporting: the name, its line, and which way. */
export function describeComparison(
  code: string,
  appendixLine: string,
): { name: string; line: number; way: string } | undefined {
  const imported = /as __Real_(\w+) \}/.exec(appendixLine);
  if (imported?.[1])
    return { name: imported[1], line: declarationsOf(code).get(imported[1])?.line ?? 0, way: 'no such export' };
  const match = /const __(doc|realv)_(\w+)/.exec(appendixLine);
  if (!match?.[2]) return undefined;
  const line = declarationsOf(code).get(match[2])?.line ?? 0;
  return {
    name: match[2],
    line,
    way:
      match[1] === 'doc'
        ? 'the real one is not assignable to the documented one'
        : 'the documented one is not assignable to the real one',
  };
}

const names = (value: string | undefined): string[] => (value ? value.split(',').filter(Boolean) : []);

/** TypeScript appended to a block that compares its declarations with the real ones ('' if none). */
export function comparisonAppendix(snippet: Snippet): string {
  const exact = names(snippet.directives['exact']);
  const partial = names(snippet.directives['partial']);
  if (exact.length + partial.length === 0) return '';
  const from = snippet.directives['from'] ?? '@zhin-gen/runtime';
  const declared = declarationsOf(snippet.code);
  const lines = [''];
  for (const [name, both] of [...exact.map((n) => [n, true] as const), ...partial.map((n) => [n, false] as const)]) {
    const doc = declared.get(name);
    if (!doc) throw new Error(`directive names ${name}, which the block does not declare at its top level`);
    const real = `__Real_${name}`;
    if (doc.kind === 'type') {
      lines.push(`import type { ${name} as ${real} } from '${from}';`);
      lines.push(
        `declare const __real_${name}: ${real}${doc.args}; const __doc_${name}: ${name}${doc.args} = __real_${name}; void __doc_${name};`,
      );
      if (both)
        lines.push(
          `declare const __docv_${name}: ${name}${doc.args}; const __realv_${name}: ${real}${doc.args} = __docv_${name}; void __realv_${name};`,
        );
    } else {
      lines.push(`import { ${name} as ${real} } from '${from}';`);
      lines.push(`const __doc_${name}: typeof ${name} = ${real}; void __doc_${name};`);
      if (both) lines.push(`const __realv_${name}: typeof ${real} = null! as typeof ${name}; void __realv_${name};`);
    }
  }
  return `${lines.join('\n')}\n`;
}
