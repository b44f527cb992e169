/**
 * Host-provided capabilities at run time: the compiled manifest records the host-provided tools
 * its skills and agents reference, and `host.load` checks every one exists in the candidate
 * generation (setup() tools, seam tools) — missing ones reject the candidate with their names,
 * all of them at once; present ones make it serve, and the skill unlocks them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import {
  CandidateRejectedError,
  createCapabilityHost,
  defineAgentTool,
  definePlugin,
  SeamIntegration,
  capabilitySeamToken,
  type CapabilityManifest,
} from '../../../runtime/index.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { HOST_CONFIG, HOST_TREE, REFERENCED } from '../../compiler/resolve/host-provided-tree.js';
import { RecordingToolService, tool } from '../seam/helpers.js';

const root = tempDir('host-provided-runtime');
let manifest: CapabilityManifest;
afterAll(() => removeDir(root));
beforeAll(async () => {
  writeTree(root, HOST_TREE);
  writeFileSync(join(root, 'zhin-gen.config.json'), JSON.stringify(HOST_CONFIG));
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  expect(result.errors).toBe(0);
  ({ manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
    manifest: CapabilityManifest;
  });
});

/** A root plugin providing `memory_*` through setup() and `bash` / the kick tool through a seam. */
function provider(options: { memory: boolean; seam: readonly string[] }) {
  const service = new RecordingToolService(
    'host:builtins',
    options.seam.map((name) => tool(name)),
  );
  return {
    service,
    plugin: definePlugin({
      name: 'host',
      setup(context) {
        if (options.memory) {
          for (const name of ['memory_search', 'memory_upsert'])
            context.addTool(
              name,
              defineAgentTool({ description: `framework ${name}`, requiresApproval: 'never', execute: () => name }),
            );
        }
        const seams = new SeamIntegration();
        seams.registerToolService('global', service);
        context.resources.provide(capabilitySeamToken, seams, () => seams.dispose());
      },
    }),
  };
}

describe('host.load checks host-provided references', () => {
  it('the manifest records the referenced host-provided tools', () => {
    expect(manifest.hostProvided).toEqual({ tools: REFERENCED });
  });

  it('missing ones reject the candidate, listing every missing name with who references it', async () => {
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    const error = await host.load(manifest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRejectedError);
    expect((error as Error).message).toBe(
      'capability generation 1 rejected: host-provided tools missing from the generation: ' +
        '"bash" (skill "memory"), "icqq_kick_member" (agent "moderator"), "memory_search" (skill "memory"), ' +
        '"memory_upsert" (skill "memory"); provide them (setup(), a seam provider, a preparer) or remove the ' +
        'references; no generation is serving yet',
    );
    expect(host.generation).toBe(0);
    // Partly provided: only the rest is listed.
    const partly = provider({ memory: true, seam: [] });
    const second = await host.load(manifest, { plugins: { '': partly.plugin } }).catch((e: unknown) => e);
    expect((second as Error).message).toContain(
      'missing from the generation: "bash" (skill "memory"), "icqq_kick_member" (agent "moderator");',
    );
  });

  it('provided through setup() and a seam, the generation serves and the skill unlocks them', async () => {
    const host = createCapabilityHost({
      jsonSchemaValidator: ajvValidator(),
      approval: { requestApproval: async () => true },
    });
    const { plugin, service } = provider({ memory: true, seam: ['bash', 'icqq_kick_member'] });
    await host.load(manifest, { plugins: { '': plugin } });
    expect(host.generation).toBe(1);
    const turn = await host.beginTurn({ sessionKey: 'host-provided' });
    await turn.execute('load_skill', { name: 'memory' });
    expect(await turn.execute('memory_search', {})).toMatchObject({ output: 'memory_search' });
    expect(await turn.execute('bash', { command: 'ls' })).toMatchObject({ status: 'completed' });
    expect(service.calls.map((c) => c.toolName)).toEqual(['bash']);
    await turn.end();
    await host.close();
  });
});
