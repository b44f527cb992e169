/**
 * The TypeScript compiler API the parse and schema stages use, loaded when this module is
 * (util/typescript-load.ts says which copy and why).
 */
import { loadTypeScript, type TypeScript } from './typescript-load.js';

export type { TypeScript } from './typescript-load.js';

export const ts: TypeScript = loadTypeScript();
