/**
 * Typed readers over parsed literals: each returns the value when it has the expected shape and
 * reports a ZG2005 (or the given code) at the value otherwise. Values that are not statically
 * known are reported once and treated as absent: ZG2011 warnings, except for the `strict` fields
 * (a tool's access and approval fields), whose absence the runtime would enforce as the default:
 * those are ZG2012 errors.
 */
import { diag, type Diagnostic, type DiagnosticCode, type SourceLocation } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';

export class FieldReader {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly props: Readonly<Record<string, Lit>>,
    readonly what: string,
    private readonly strict: ReadonlySet<string> = new Set(),
  ) {}

  private notStatic(name: string, lit: Lit): void {
    // A same-file const the module may change: say where, not "not a literal value".
    const why = lit.t === 'unknown' && lit.why !== undefined ? ` (${lit.why})` : '';
    this.diagnostics.push(
      this.strict.has(name)
        ? diag('ZG2012', {
            ...lit.loc,
            message: `${this.what}: \`${name}\` is not a literal value${why}: the manifest, which the runtime enforces, cannot carry it`,
          })
        : diag('ZG2011', {
            ...lit.loc,
            message: `${this.what}: \`${name}\` is not a literal value${why} and cannot be checked at build time`,
          }),
    );
  }

  private wrong(name: string, lit: Lit, expected: string, code: DiagnosticCode = 'ZG2005'): void {
    this.diagnostics.push(diag(code, { ...lit.loc, message: `${this.what}: \`${name}\` must be ${expected}` }));
  }

  string(name: string): { value: string; loc: SourceLocation } | undefined {
    const lit = this.props[name];
    if (!lit) return undefined;
    if (lit.t === 'string') return { value: lit.v, loc: lit.loc };
    if (lit.t === 'unknown') this.notStatic(name, lit);
    else this.wrong(name, lit, 'a string');
    return undefined;
  }

  boolean(name: string): boolean | undefined {
    const lit = this.props[name];
    if (!lit) return undefined;
    if (lit.t === 'boolean') return lit.v;
    if (lit.t === 'unknown') this.notStatic(name, lit);
    else this.wrong(name, lit, 'true or false');
    return undefined;
  }

  number(name: string): { value: number; loc: SourceLocation } | undefined {
    const lit = this.props[name];
    if (!lit) return undefined;
    if (lit.t === 'number') return { value: lit.v, loc: lit.loc };
    if (lit.t === 'unknown') this.notStatic(name, lit);
    else this.wrong(name, lit, 'a number');
    return undefined;
  }

  /** A string array; with `allowed`, entries outside it are reported with `code`. */
  strings(
    name: string,
    allowed?: readonly string[],
    code: DiagnosticCode = 'ZG2005',
  ): { value: string; loc: SourceLocation }[] | undefined {
    const lit = this.props[name];
    if (!lit) return undefined;
    if (lit.t === 'unknown') {
      this.notStatic(name, lit);
      return undefined;
    }
    if (lit.t !== 'array') {
      this.wrong(name, lit, 'an array of strings');
      return undefined;
    }
    const out: { value: string; loc: SourceLocation }[] = [];
    // A Set, not a scan of `out`: 40,000 keywords took 5.9 s.
    const seen = new Set<string>();
    for (const item of lit.items) {
      if (item.t === 'unknown') {
        this.notStatic(name, item);
        continue;
      }
      if (item.t !== 'string' || item.v.trim() === '') {
        this.wrong(name, item, 'an array of non-empty strings');
        continue;
      }
      if (allowed && !allowed.includes(item.v)) {
        this.diagnostics.push(
          diag(code, {
            ...item.loc,
            message: `${this.what}: \`${name}\` entry "${item.v}" is not one of ${allowed.map((a) => `'${a}'`).join(', ')}`,
          }),
        );
        continue;
      }
      if (seen.has(item.v)) {
        this.wrong(name, item, `free of duplicates ("${item.v}" is listed twice)`);
        continue;
      }
      seen.add(item.v);
      out.push({ value: item.v, loc: item.loc });
    }
    return out;
  }

  /**
   * Reports keys not in `known` as ZG2010 warnings, and each key that could not be named
   * (`opaque`: a computed key that is not a literal) as not statically known: an error when
   * there are strict fields it may set.
   */
  unknownKeys(
    known: readonly string[],
    keyLocs: Readonly<Record<string, SourceLocation>>,
    opaque: readonly SourceLocation[] = [],
  ): void {
    for (const loc of opaque)
      this.diagnostics.push(
        this.strict.size > 0
          ? diag('ZG2012', {
              ...loc,
              message: `${this.what}: a computed key that is not a literal may set ${[...this.strict].map((name) => `\`${name}\``).join(', ')}, which the manifest cannot carry`,
            })
          : diag('ZG2011', { ...loc, message: `${this.what}: a computed key that is not a literal is not read` }),
      );
    for (const key of Object.keys(this.props)) {
      if (!known.includes(key))
        this.diagnostics.push(
          diag('ZG2010', {
            ...(keyLocs[key] ?? this.props[key]!.loc),
            message: `${this.what}: unknown field \`${key}\``,
          }),
        );
    }
  }
}
