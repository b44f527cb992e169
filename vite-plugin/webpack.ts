/** `zhin-gen/webpack`: the zhin-gen build plugin for webpack (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.webpack;
