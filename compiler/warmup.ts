/**
 * The modules a run that parses something needs (parsers, the schema stage), loaded ahead of the
 * first edit: warm runs never need them, so a dev server that started from the cache loads them
 * in the background after start-up to keep the first edit fast.
 */
export async function warmStages(): Promise<void> {
  await Promise.all([
    import('./parse/units.js'),
    import('./util/typescript.js'),
    import('./schema/index.js'),
    import('./schema/convert.js'),
  ]);
  (await import('./util/lazy.js')).preloadLazy();
}
