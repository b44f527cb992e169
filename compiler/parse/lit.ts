/**
 * A literal value read from source, with its positions: the parse stage's output and the
 * validators' input. Kept apart from the reader (literal.ts) so the compiler's public
 * declarations, which reach it through the validators' field types, need no TypeScript types.
 */
import type { SourceLocation } from '../diagnostics.js';

export type Lit =
  | { readonly t: 'string'; readonly v: string; readonly loc: SourceLocation }
  | { readonly t: 'number'; readonly v: number; readonly loc: SourceLocation }
  | { readonly t: 'boolean'; readonly v: boolean; readonly loc: SourceLocation }
  | { readonly t: 'null'; readonly loc: SourceLocation }
  | { readonly t: 'array'; readonly items: readonly Lit[]; readonly loc: SourceLocation }
  | {
      readonly t: 'object';
      readonly props: Readonly<Record<string, Lit>>;
      readonly keyLocs: Readonly<Record<string, SourceLocation>>;
      /** Keys the reader could not name (a computed key that is not a literal): any field they may set is unknown. */
      readonly opaque?: readonly SourceLocation[];
      readonly loc: SourceLocation;
    }
  | { readonly t: 'function'; readonly loc: SourceLocation }
  | {
      readonly t: 'unknown';
      readonly text: string;
      readonly loc: SourceLocation;
      /** Why a same-file const is not read through (parse/escapes.ts): where the module may change it. */
      readonly why?: string;
    };
