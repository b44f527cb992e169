/** `zhin-gen/rspack`: the zhin-gen build plugin for rspack (see ./core.ts). */
// @rspack/core is the user's (an optional peer, not installed in this repository). The declaration
// names its plugin type, as webpack.ts's names webpack's; here it is `any`. Not @ts-expect-error: in
// a bot that has @rspack/core installed the import resolves, and an unused expect-error would fail
// a type check of zhin-gen's declarations.
// biome-ignore lint/suspicious/noTsIgnore: the import resolves in some installs and not in others
// @ts-ignore
import type { RspackPluginInstance } from '@rspack/core';
import { unplugin } from './core.js';
import type { ZhinGenPluginOptions } from './options.js';

// From options.ts, not core.ts: the entry's declaration then names only this bundler's types
// (core's unplugin types import every bundler, which a user's skipLibCheck: false would check).
export type { ZhinGenPluginOptions } from './options.js';
const rspack: (options?: ZhinGenPluginOptions) => RspackPluginInstance = unplugin.rspack;
export default rspack;
