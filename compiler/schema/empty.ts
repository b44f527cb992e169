import type { JsonSchema } from '@zhin-gen/runtime';

/**
 * The input schema of a tool without `inputSchema`: exactly what `z.object({})` projects to on
 * the input side. Kept in its own module so importing it never loads Zod.
 */
export const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });
