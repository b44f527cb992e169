/**
 * Module resolution hooks shared by the processes that import a project's own modules (load
 * verification's child, `zhin-gen mcp`): seed define-module names (`@zhin.js/tool`, ...) that are
 * not installed resolve to zhin-gen's runtime, as the build plugin does (docs/build-plugin.md,
 * "Seed package names"): first `@zhin-gen/runtime` as the importer sees it, then the one zhin-gen
 * depends on. Register with `module.register(dataUrl, { data: { aliases, runtimeUrl } })`.
 *
 * With a `port` in the data (load verification), every package a module outside `node_modules`
 * imports and that resolves to a file is posted on it as `{ parent, specifier, url }`, so the parent
 * can check that the bot declares it (verify/declared-deps.ts); a message on the port is echoed
 * back, which tells the child that everything posted before it has arrived. A seed name that
 * fell back to the runtime is not posted: the bot imports it only through a bundler's alias.
 */
export const ALIAS_HOOKS = `
let data;
export function initialize(setup) {
  data = setup;
  data.port?.on('message', (message) => data.port.postMessage(message));
  data.port?.unref();
}
function note(specifier, parent, url) {
  if (!data.port || !parent?.startsWith('file:') || parent.includes('/node_modules/')) return;
  if (!url.startsWith('file:') || /^(?:[./#]|[A-Za-z][A-Za-z0-9+.-]*:)/.test(specifier)) return;
  data.port.postMessage({ parent, specifier, url });
}
export async function resolve(specifier, context, next) {
  if (!data.aliases.includes(specifier)) {
    const resolved = await next(specifier, context);
    note(specifier, context.parentURL, resolved.url);
    return resolved;
  }
  try {
    const resolved = await next(specifier, context);
    note(specifier, context.parentURL, resolved.url);
    return resolved;
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
