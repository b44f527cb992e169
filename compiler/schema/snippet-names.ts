/**
 * What a schema snippet's text may bind and call (schema/extract.ts): the names strict mode
 * reserves, the one global evaluation provides, the pure built-ins an expression may read, and
 * the small text helpers the extractor writes the snippet with.
 */
import vm from 'node:vm';
import type { ts as TS } from 'ts-morph';
import { DEFAULT_LOCAL } from './modules.js';

/** Names a module may bind in sloppy-mode JavaScript (and TypeScript parses) but strict mode may not. */
export const STRICT_RESERVED = new Set([
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'eval',
  'arguments',
]);

/** Name of the only global the snippet needs; evaluate.ts provides it. */
export const ZOD_GLOBAL = '__zhinGenZod';

/** Pure built-ins a schema expression may use; anything else free sends the tool to the fallback. */
export const SAFE_GLOBALS = new Set([
  'undefined',
  'NaN',
  'Infinity',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'RegExp',
  'JSON',
  'Math',
  'Symbol',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Date',
  'BigInt',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
]);

export function hasSyntaxErrors(sf: TS.SourceFile): boolean {
  return ((sf as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics?.length ?? 0) > 0;
}

export function emitName(local: string): string {
  return local === DEFAULT_LOCAL ? '__zg_default' : local;
}

export function rawText(node: TS.Node, sf: TS.SourceFile): string {
  return node.getText(sf).replace(/^export\s+(default\s+)?/, '');
}

/** Snippet code is a function body; compiling (not running) it catches stripping mistakes. */
export function compiles(code: string): boolean {
  try {
    new vm.Script(`(function () {\n${code}\n})`);
    return true;
  } catch {
    return false;
  }
}
