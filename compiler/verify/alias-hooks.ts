/**
 * Module resolution hooks shared by the processes that import a project's own modules (load
 * verification's child, `zhin-gen mcp`): seed define-module names (`@zhin.js/tool`, ...) that are
 * not installed resolve to zhin-gen's runtime, as the build plugin does (docs/build-plugin.md,
 * "Seed package names"): first `@zhin-gen/runtime` as the importer sees it, then the one zhin-gen
 * depends on. Register with `module.register(dataUrl, { data: { aliases, runtimeUrl } })`.
 */
export const ALIAS_HOOKS = `
let data;
export function initialize(setup) { data = setup; }
export async function resolve(specifier, context, next) {
  if (!data.aliases.includes(specifier)) return next(specifier, context);
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    try {
      return await next('@zhin-gen/runtime', context);
    } catch {
      return next(data.runtimeUrl, context);
    }
  }
}
`;
