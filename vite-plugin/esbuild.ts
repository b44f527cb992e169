/** `zhin-gen/esbuild`: the zhin-gen build plugin for esbuild (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.esbuild;
