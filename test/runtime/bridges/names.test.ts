/**
 * Tool names that are also Object.prototype members (`constructor` is a valid tool name) reach
 * the model and run like any other, through every bridge: a bridge that keeps tools in a plain
 * object must not mistake the inherited member for a tool it already holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CapabilityManifest,
  createCapabilityHost,
  defineAgentTool,
  type ManifestTool,
} from '../../../runtime/index.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { BRIDGES, runBridge, sentResults, sentTools } from './drivers.js';
import { type FakeModelServer, startFakeModels } from './fake-models.js';
import { journalByCall } from './scenario.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function constructorTool(): ManifestTool {
  const definition = defineAgentTool({
    description: 'Build a thing',
    requiresApproval: 'never',
    execute: async () => 'built',
  });
  return {
    qualifiedName: 'constructor',
    localName: 'constructor',
    owner: '',
    placement: 'plugin',
    description: 'Build a thing',
    inputSchema: { type: 'object', properties: {} },
    requiresApproval: 'never',
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    source: 'tools/constructor/index.ts',
    load: () => Promise.resolve({ default: definition }),
  };
}

const MANIFEST: CapabilityManifest = {
  version: 1,
  plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
  tools: [constructorTool()],
  skills: [],
  agents: [],
  promptSections: [],
  hooks: [],
};

describe.each(BRIDGES)('%s', (bridge) => {
  it('a tool named constructor is offered, called and answered', async () => {
    server = await startFakeModels([{ calls: [{ id: 'c1', name: 'constructor', input: {} }] }, { text: 'Done.' }]);
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await host.load(MANIFEST);
    const turn = await host.beginTurn({ sessionKey: 'names' });
    try {
      await runBridge(bridge, turn, server, { defer: false });
      expect(sentTools(bridge, server.requests[0]!).map((tool) => tool.name)).toContain('constructor');
      expect(journalByCall(turn.journal)).toEqual({ c1: ['constructor:tool_call', 'constructor:tool_result'] });
      expect(sentResults(bridge, server.requests[1]!).map((result) => result.text)).toEqual(['built']);
    } finally {
      await turn.end();
      await host.close();
    }
  });
});

const NO_TOOLS: CapabilityManifest = { ...MANIFEST, tools: [] };

describe.each(BRIDGES)('%s, a call of a name the turn does not have', (bridge) => {
  // The AI SDK looks a call's tool up as `tools[name]`; in a plain object `toString` found
  // Object's member, a "tool" without execute, and the turn ended silently with no answer.
  it.each(['toString', 'constructor', '__proto__'])(
    '%s is refused like any unknown name, and the loop goes on',
    async (name) => {
      server = await startFakeModels([{ calls: [{ id: 'c1', name, input: {} }] }, { text: 'Done.' }]);
      const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
      await host.load(NO_TOOLS);
      const turn = await host.beginTurn({ sessionKey: 'names' });
      try {
        const { result } = await runBridge(bridge, turn, server, { defer: false });
        expect(result.text).toBe('Done.');
        expect(server.requests).toHaveLength(2);
        expect(turn.journal.map((entry) => entry.type)).toContain('tool_denied');
      } finally {
        await turn.end();
        await host.close();
      }
    },
  );
});
