/** `zhin-gen/rollup`: the zhin-gen build plugin for rollup (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.rollup;
