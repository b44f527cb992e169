/** `zhin-gen/rspack`: the zhin-gen build plugin for rspack (see ./core.ts). */
// @ts-expect-error -- @rspack/core is the user's (an optional peer, not installed in this repository).
// The declaration names its plugin type, as webpack.ts's names webpack's; here it is `any`.
import type { RspackPluginInstance } from '@rspack/core';
import { unplugin } from './core.js';
import type { ZhinGenPluginOptions } from './options.js';

// From options.ts, not core.ts: the entry's declaration then names only this bundler's types
// (core's unplugin types import every bundler, which a user's skipLibCheck: false would check).
export type { ZhinGenPluginOptions } from './options.js';
const rspack: (options?: ZhinGenPluginOptions) => RspackPluginInstance = unplugin.rspack;
export default rspack;
