/** `zhin-gen/vite`: the zhin-gen build plugin for vite (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.vite;
