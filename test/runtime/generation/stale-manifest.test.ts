/**
 * The deployed manifest and the modules beside it disagree (a tool edited after `generate`, a
 * deploy that left the validators folder out): the runtime decides access and approval from the
 * manifest, so a module that now asks for more is refused (load_failed, "the manifest is stale"),
 * never run under the older policy; a validator module that is not there makes the tool
 * unavailable (not the model's input at fault), said without the server's paths.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { type CapabilityManifest, createCapabilityHost, type ToolOutcome } from '../../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const tool = (name: string, policy: string, schema = "{ type: 'object', properties: {} }"): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';
export default defineAgentTool({
  description: 'The ${name} tool',
  inputSchema: ${schema},
  ${policy}
  async execute() {
    (globalThis as { __ran?: string[] }).__ran = [...((globalThis as { __ran?: string[] }).__ran ?? []), '${name}'];
    return 'ran ${name}';
  },
});
`;

async function generated(files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir('stale-manifest'), { 'AGENTS.md': '# Bot\n\nBe helpful.\n', ...files });
  dirs.push(root);
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  expect(result.diagnostics).toEqual([]);
  return root;
}

async function call(root: string, name: string, input: unknown): Promise<ToolOutcome> {
  const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
    manifest: CapabilityManifest;
  };
  const host = createCapabilityHost();
  await host.load(manifest);
  const turn = await host.beginTurn({ sessionKey: `s-${name}` });
  const outcome = await turn.execute(name, input);
  await turn.end();
  await host.close();
  return outcome;
}

describe('a manifest older than its modules', () => {
  it.each([
    ["requiresApproval: 'always',", 'requiresApproval: the manifest has "never", the module "always"'],
    ["requiresApproval: 'never', permissions: ['role(admin)'],", 'permissions: the manifest lacks "role(admin)"'],
    ["requiresApproval: 'never', platforms: ['icqq'],", 'platforms: the manifest has [], the module ["icqq"]'],
  ])('a module edited to %s after generate is refused, never run under the manifest', async (edited, why) => {
    const root = await generated({ 'tools/guarded/index.ts': tool('guarded', "requiresApproval: 'never',") });
    writeFileSync(join(root, 'tools/guarded/index.ts'), tool('guarded', edited));
    (globalThis as { __ran?: string[] }).__ran = [];
    const outcome = await call(root, 'guarded', {});
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'load_failed' } });
    const message = (outcome as { error: { message: string } }).error.message;
    expect(message).toContain(why);
    expect(message).toContain('the manifest is stale: run zhin-gen generate');
    expect((globalThis as { __ran?: string[] }).__ran).toEqual([]);
  });

  it.each([
    // Removed: it is 'on-risk' now (the compiler reads it so), which asks where 'never' does not.
    ['', 'requiresApproval: the manifest has "never", the module "on-risk"'],
    // Not a ladder: 'once' remembers an approval, 'on-risk' asks on every call its policy flags.
    ["requiresApproval: 'on-risk',", 'requiresApproval: the manifest has "never", the module "on-risk"'],
  ])('approval edited to %j after generate: refused', async (edited, why) => {
    const root = await generated({ 'tools/guarded/index.ts': tool('guarded', "requiresApproval: 'never',") });
    writeFileSync(join(root, 'tools/guarded/index.ts'), tool('guarded', edited));
    const outcome = await call(root, 'guarded', {});
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'load_failed' } });
    expect((outcome as { error: { message: string } }).error.message).toContain(why);
  });

  it("'once' in the manifest, 'on-risk' in the module: refused (neither covers the other)", async () => {
    const root = await generated({ 'tools/guarded/index.ts': tool('guarded', "requiresApproval: 'once',") });
    writeFileSync(join(root, 'tools/guarded/index.ts'), tool('guarded', "requiresApproval: 'on-risk',"));
    expect(await call(root, 'guarded', {})).toMatchObject({ status: 'failed', error: { code: 'load_failed' } });
  });

  it('a module that asks for less than the manifest runs under the manifest', async () => {
    const root = await generated({
      'tools/strict/index.ts': tool('strict', "requiresApproval: 'always', permissions: [], platforms: ['qq'],"),
    });
    // Loosened after generate (asks never, every platform): the stricter manifest decides.
    writeFileSync(join(root, 'tools/strict/index.ts'), tool('strict', "requiresApproval: 'never',"));
    const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
      manifest: CapabilityManifest;
    };
    const asked: string[] = [];
    const host = createCapabilityHost({
      approval: { requestApproval: async (request) => (asked.push(request.toolName), true) },
    });
    await host.load(manifest);
    const turn = await host.beginTurn({
      sessionKey: 'strict',
      message: { $adapter: 'qq', $sender: { id: 'u' } } as never,
    });
    expect(await turn.execute('strict', {})).toMatchObject({ status: 'completed', output: 'ran strict' });
    // The manifest's 'always' was applied, not the module's 'never'.
    expect(asked).toEqual(['strict']);
    await turn.end();
    await host.close();
  });

  it('a validator module left out of the deploy: the tool is unavailable, without the server path', async () => {
    const root = await generated({
      'tools/lookup/index.ts': tool(
        'lookup',
        "requiresApproval: 'never',",
        "{ type: 'object', properties: { q: { type: 'string', minLength: 2, pattern: '^[a-z]+$' } }, required: ['q'] }",
      ),
    });
    const manifestText = readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(manifestText).toContain('zhin-capabilities.gen.validators/');
    rmSync(join(root, 'zhin-capabilities.gen.validators'), { recursive: true });
    const outcome = await call(root, 'lookup', { q: 'abc' });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'unavailable' } });
    const message = (outcome as { error: { message: string } }).error.message;
    expect(message).toContain('the input validator of tool "lookup" could not be loaded');
    expect(message).not.toContain(root);
    expect(message).not.toMatch(/invalid input/);
  });
});
