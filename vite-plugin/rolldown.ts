/** `zhin-gen/rolldown`: the zhin-gen build plugin for rolldown (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.rolldown;
