/**
 * Plugin entry rule family: the literal fields `definePlugin` itself checks when plugin.ts is
 * imported (runtime/contract/define.ts). A plugin entry that throws there makes `host.load()` reject the
 * whole generation, so what is visible statically is reported here. Only for a `definePlugin`
 * from a recognised module: another framework's `definePlugin` has its own contract.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';

const WHY = 'definePlugin() rejects it when plugin.ts is imported, so host.load() fails';

export function validatePluginFields(fields: Lit): Diagnostic[] {
  // Not a literal (a variable, a spread): the runtime checks it.
  if (fields.t !== 'object') {
    return fields.t === 'unknown'
      ? []
      : [diag('ZG2005', { ...fields.loc, message: `definePlugin: the definition must be an object (${WHY})` })];
  }
  const out: Diagnostic[] = [];
  const name = fields.props.name;
  if (!name) {
    out.push(
      diag('ZG2005', {
        ...fields.loc,
        message: `definePlugin: \`name\` is missing; it must be a non-empty string (${WHY})`,
      }),
    );
  } else if (name.t === 'string' ? name.v.trim() === '' : name.t !== 'unknown' && name.t !== 'function') {
    // 'function' covers a getter, which may well return a string.
    out.push(diag('ZG2005', { ...name.loc, message: `definePlugin: \`name\` must be a non-empty string (${WHY})` }));
  }
  const setup = fields.props.setup;
  if (setup && setup.t !== 'function' && setup.t !== 'unknown') {
    out.push(diag('ZG2005', { ...setup.loc, message: `definePlugin: \`setup\` must be a function (${WHY})` }));
  }
  return out;
}
