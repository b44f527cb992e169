/**
 * Nesting limits for user input. The parsers and every walk over what they return recurse (the
 * TypeScript parser, jsonc-parser, yaml, ajv, the literal reader, the schema extractor), and a
 * value nested thousands of levels deep used to end the run in "Maximum call stack size
 * exceeded". Depth is checked once, where the input enters, without recursion: a file deeper
 * than the limit is reported at its first too-deep position and never walked, so every later
 * walk is bounded by construction.
 */
import type { ts as TS } from 'ts-morph';

/**
 * Brackets (JSON, YAML flow collections; code the TypeScript parser could not take): the
 * evaluation path already refuses schema values nested more than 256 levels (schema/project.ts),
 * and real agent.json / SKILL.md values nest two or three.
 */
export const MAX_NESTING = 256;

/**
 * Syntax-tree levels of a parsed TypeScript/JavaScript file. Real modules stay below ~60; a
 * schema at the evaluation path's 256 levels is ~520 (an object and a property per level).
 * Chains the parser builds without recursion (`a + b + …`, `.min(1).max(2)…`) also count, as the
 * walks over them do recurse.
 */
export const MAX_SYNTAX_DEPTH = 1000;

/**
 * Offset of the first bracket nested deeper than `limit`, or undefined. Strings and comments
 * are skipped (for code also template literals, whose `${` nests like a bracket). For JSON this
 * decides; for YAML it counts flow brackets (text in a block scalar counts too: it would take
 * 256 unbalanced brackets there to matter); for code it only locates a problem the parser
 * already had, as regular expression literals are not recognised.
 */
export function firstTooDeep(text: string, syntax: 'code' | 'json' | 'yaml', limit = MAX_NESTING): number | undefined {
  // Open brackets, innermost last: ( [ { as written, '$' for a template's `${`, '`' inside a
  // template literal's text (where only `${` and the closing backtick mean anything).
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (open[open.length - 1] === '`') {
      if (c === '\\') i++;
      else if (c === '`') open.pop();
      else if (c === '$' && text[i + 1] === '{') {
        open.push('$');
        if (open.length > limit) return i;
        i++;
      }
      continue;
    }
    if (
      (c === '"' || (c === "'" && syntax !== 'json')) &&
      (syntax !== 'yaml' || i === 0 || /[\s[{,:]/.test(text[i - 1]!))
    ) {
      // A YAML quote opens a scalar only at its start (the one in "don't" is text).
      i = skipString(text, i, c, syntax === 'yaml');
    } else if (syntax === 'code' && c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const line = text[i + 1] === '/';
      const end = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : line ? end : end + 1;
    } else if (syntax === 'yaml' && c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '{' || c === '[' || (syntax === 'code' && (c === '(' || c === '`'))) {
      open.push(c);
      if (open.length > limit) return i;
    } else if (c === '}' || c === ']' || (syntax === 'code' && c === ')')) {
      open.pop();
    }
  }
  return undefined;
}

/** Index of the closing quote of the string opening at `start` (YAML: may span lines, '' escapes '). */
function skipString(text: string, start: number, quote: string, yaml: boolean): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && !(yaml && quote === "'")) i++;
    else if (c === quote) {
      if (yaml && quote === "'" && text[i + 1] === "'") i++;
      else return i;
    } else if (c === '\n' && !yaml) return i;
  }
  return text.length;
}

export interface TooDeep {
  /** Where the first too-deep construct starts. */
  readonly offset: number;
  /** Which limit it passed, for the message. */
  readonly why: string;
}

/** A parsed file, or where it is too deep (with the tree when the parser got through it). */
export type SourceParse =
  | { readonly sf: TS.SourceFile; readonly tooDeep?: undefined }
  | { readonly sf: TS.SourceFile | undefined; readonly tooDeep: TooDeep };

/**
 * No JSDoc: nothing in the compiler reads doc comments as syntax (descriptions are string
 * literals), and building their trees is about a tenth of parsing a commented tool module. Its
 * own errors never were parse errors (TypeScript keeps them apart), so no diagnostic changes.
 */
function parseOptions(ts: typeof TS): TS.CreateSourceFileOptions {
  return { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
}

/**
 * `ts.createSourceFile`, bounded: the parser recurses per nesting level and throws RangeError
 * at a few hundred levels of brackets; the parsed tree is then checked without recursion.
 */
export function parseSource(
  ts: typeof TS,
  file: string,
  text: string,
  kind: TS.ScriptKind,
  onNode?: (node: TS.Node) => void,
): SourceParse {
  let sf: TS.SourceFile;
  try {
    sf = ts.createSourceFile(file, text, parseOptions(ts), false, kind);
  } catch (error) {
    if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) throw error;
    // Locate it in the text: the first bracket past the limit, else (`!!!…x`, `a ? b : c ? …`)
    // where the parser runs out.
    const bracket = firstTooDeep(text, 'code');
    return {
      sf: undefined,
      tooDeep:
        bracket !== undefined
          ? // The parser's own limit (its stack), met somewhere past here: the rule is not 256.
            {
              offset: bracket,
              why: `deeper than the TypeScript parser can follow: brackets nest more than ${MAX_NESTING} levels here`,
            }
          : { offset: parserLimit(ts, text, kind), why: 'deeper than the TypeScript parser can follow' },
    };
  }
  const deep = firstTooDeepNode(ts, sf, onNode);
  return deep
    ? { sf, tooDeep: { offset: deep.getStart(sf), why: `more than ${MAX_SYNTAX_DEPTH} syntax levels` } }
    : { sf };
}

/**
 * The first node (in source order) more than {@link MAX_SYNTAX_DEPTH} levels below the root.
 * `onNode` sees every node up to there, so a caller that needs a full walk anyway (definition.ts
 * looks for dynamic imports) does not make a second one.
 */
function firstTooDeepNode(ts: typeof TS, root: TS.Node, onNode?: (node: TS.Node) => void): TS.Node | undefined {
  // Recursive, but never deeper than the limit: `forEachChild` stops at the first child whose
  // visit returns a node, so the walk ends at the first node past it (in source order). A few
  // stack frames per level at 1,000 levels is far inside Node's stack, and about half the cost
  // of an explicit stack of every node.
  let depth = 0;
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): TS.Node | undefined => {
    if (depth > MAX_SYNTAX_DEPTH) return (found = node);
    onNode?.(node);
    depth++;
    ts.forEachChild(node, visit);
    depth--;
    return found;
  };
  visit(root);
  return found;
}

/**
 * The end of the longest prefix of `text` the parser gets through: where the nesting it cannot
 * follow begins. A binary search over prefixes (a prefix nests no deeper than the text); only
 * run after the parser has already failed on the whole text.
 */
function parserLimit(ts: typeof TS, text: string, kind: TS.ScriptKind): number {
  let parses = 0;
  let fails = text.length;
  while (fails - parses > 1) {
    const mid = (parses + fails) >> 1;
    try {
      ts.createSourceFile('prefix.ts', text.slice(0, mid), parseOptions(ts), false, kind);
      parses = mid;
    } catch {
      fails = mid;
    }
  }
  return parses;
}
