/**
 * The JSON Schemas the runtime itself brings, each with a validator generated from it at
 * development time (./generated/, by the same emitter the compiler uses for tool schemas;
 * test/runtime/validators/validators.test.ts regenerates them and fails when they drift), so that
 * no runtime-owned tool, and no `addTool` without a schema, needs a runtime JSON Schema compiler.
 */
import type { JsonSchema } from '../contract/manifest.js';

/** `ask_user` (runtime/turn/ask-user.ts). */
export const ASK_USER_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    question: Object.freeze({ type: 'string', minLength: 1, description: 'The question to ask' }),
    options: Object.freeze({
      type: 'array',
      items: Object.freeze({ type: 'string' }),
      description: 'Optional suggested answers',
    }),
  }),
  required: Object.freeze(['question']),
  additionalProperties: false,
});

/** `BuiltinToolService`'s question tool (runtime/seam/adapters.ts). */
export const QUESTION_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    question: Object.freeze({ type: 'string', minLength: 1 }),
    options: Object.freeze({ type: 'array', items: Object.freeze({ type: 'string' }) }),
  }),
  required: Object.freeze(['question']),
  additionalProperties: false,
});

/** A definition without `inputSchema` (runtime/generation/capability.ts `jsonSchemaOf`). */
export const OPEN_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object' });

/** Name of each generated module in ./generated/ (`<name>.gen.ts`) and the schema it was made from. */
export const BUILTIN_SCHEMAS: Readonly<Record<'ask-user' | 'question' | 'open-object', JsonSchema>> = Object.freeze({
  'ask-user': ASK_USER_SCHEMA,
  question: QUESTION_SCHEMA,
  'open-object': OPEN_OBJECT_SCHEMA,
});
