/** `zhin-gen/rspack`: the zhin-gen build plugin for rspack (see ./core.ts). */
import { unplugin } from './core.js';

export type { ZhinGenPluginOptions } from './core.js';
export default unplugin.rspack;
