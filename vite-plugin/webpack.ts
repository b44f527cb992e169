/** `zhin-gen/webpack`: the zhin-gen build plugin for webpack (see ./core.ts). */
import { unplugin } from './core.js';

// From options.ts, not core.ts: the entry's declaration then names only this bundler's types
// (core's unplugin types import every bundler, which a user's skipLibCheck: false would check).
export type { ZhinGenPluginOptions } from './options.js';
export default unplugin.webpack;
