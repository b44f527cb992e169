/**
 * The `import()` of a module the manifest loads lazily (a tool, a hook, a plugin entry). The
 * output passes the bot's own `tsc --strict` (SPEC): a literal `import("./tools/x/index.js")` of
 * a JavaScript entry (`index.js`, `index.mjs`, `plugin.js`) makes tsc look for the module's types
 * and fail with TS7016 unless the bot sets `allowJs` or ships a `.d.ts` beside it. Such an import
 * is written `import("…" as string)`: tsc does not resolve a specifier that is not a literal and
 * types the module `any` (an untyped tool's input is `Record<string, unknown>` anyway), while
 * bundlers and Node see the literal again once the types are stripped, so they split and load
 * it as before.
 */
/** `import("spec")` for a TypeScript module (util/typed-source.ts), `import("spec" as string)` for a JavaScript one. */
export function loaderCall(specLiteral: string, typed: boolean): string {
  return `import(${specLiteral}${typed ? '' : ' as string'})`;
}
