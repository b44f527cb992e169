/**
 * The tool modules and manifest the turn pipeline tests share (pipeline.test.ts, context.test.ts),
 * written into each test file's own fixture directory.
 */
import type { JournalEntry } from '../../../runtime/index.js';
import { type Fixture, manifest } from '../fixture.js';

export const types = (journal: readonly JournalEntry[]) => journal.map((entry) => entry.type);

export const jsonSchema = { type: 'object', properties: { m: { type: 'string' } }, required: ['m'] };

export function pipelineTools(fx: Fixture) {
  const zodTool = fx.toolModule('weather', {
    imports: `import { z } from 'zod';`,
    schema: `z.object({ city: z.string().min(1), days: z.number().int().default(3) })`,
    body: `return { city: input.city, days: input.days };`,
  });
  const jsonTool = fx.toolModule('json', {
    schema: `{ type: 'object', properties: { m: { type: 'string' } }, required: ['m'] }`,
  });
  const plainTool = fx.toolModule('plain');
  const secretTool = fx.toolModule('secret');
  const hiddenTool = fx.toolModule('hidden');
  const failing = fx.toolModule('failing', {
    body: `const e = new Error('upstream 503'); e.retryable = true; throw e;`,
  });
  const brokenExport = fx.write(
    'tools/broken/index.ts',
    `(globalThis.__loaded ??= []).push('broken'); export default { description: 'not a tool' };`,
  );
  const contextTool = fx.toolModule('ctx', {
    body: `return {
      config: context.config, owner: context.owner, generation: context.generation, sessionKey: context.sessionKey,
      turnId: context.turnId, traceId: context.traceId, origin: context.origin, principal: context.principal,
      policy: context.policy, hasQuestion: context.question !== undefined, toolName: context.toolName,
      toolUseId: context.toolUseId, aborted: context.signal.aborted,
    };`,
  });

  const baseManifest = () =>
    manifest({
      tools: [
        fx.tool('weather', zodTool, { inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }),
        fx.tool('json', jsonTool, { inputSchema: jsonSchema }),
        fx.tool('plain', plainTool),
        fx.tool('secret', secretTool, { permissions: ['role(master)'] }),
        fx.tool('platform-only', plainTool, { platforms: ['qq'] }),
        fx.tool('hidden', hiddenTool, { hidden: true }),
        fx.tool('failing', failing),
        fx.tool('broken', brokenExport),
        fx.tool('ctx', contextTool),
        fx.tool('maps__ctx', contextTool, { owner: 'maps', localName: 'ctx' }),
      ],
    });
  return { zodTool, jsonTool, plainTool, secretTool, hiddenTool, failing, brokenExport, contextTool, baseManifest };
}
