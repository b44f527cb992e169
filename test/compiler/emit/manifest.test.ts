/**
 * The generated module: type-checks under `tsc --strict --noUnusedLocals`, types tool names and
 * inputs, stays valid and inert whatever user text contains, and is byte-identical whatever
 * order files are read in.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { buildLayout, collectUnits } from '../../../compiler/scan/layout.js';
import { copyFixture, FIXTURES, REPO, removeDir, tempDir, writeTree } from '../../helpers.js';
import type { CapabilityManifest } from '../../../runtime/contract/manifest.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tsc(project: string): { status: number; output: string } {
  const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
    encoding: 'utf8',
  });
  return { status: run.status ?? -1, output: `${run.stdout}${run.stderr}` };
}

describe('generated module', () => {
  it('passes tsc --strict --noUnusedLocals and types names and inputs', async () => {
    const root = copyFixture('example-bot', 'tsc');
    dirs.push(root);
    // JavaScript entries (no allowJs, no .d.ts): a literal import() of one would be TS7016.
    writeTree(root, {
      'tools/js-tool/index.js': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'A JS tool', requiresApproval: 'never', execute: () => 1 });\n`,
      'hooks/js-hook/index.mjs': `import { defineAgentHook } from 'zhin-gen/runtime';\nexport default defineAgentHook({ events: ['tool:after'], handle() {} });\n`,
      'plugins/js-plugin/plugin.js': `import { definePlugin } from 'zhin-gen/runtime';\nexport default definePlugin({ name: 'js-plugin' });\n`,
      'plugins/js-plugin/tools/js-child/index.mjs': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'A child JS tool', requiresApproval: 'never', execute: () => 2 });\n`,
    });
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(0);
    expect(result.written).toBe(true);
    writeFileSync(
      join(root, 'types-check.ts'),
      `import type { ToolName, ToolInputs, SkillName, AgentName } from './zhin-capabilities.gen.js';
import { manifest } from './zhin-capabilities.gen.js';
import type { ToolInput, ToolName as RuntimeToolName } from 'zhin-gen/runtime';

export const weather: ToolName = 'maps__get-weather';
// @ts-expect-error not a tool of this manifest
export const bad: ToolName = 'maps__nope';
export const input: ToolInputs['maps__get-weather'] = { city: 'Paris', unit: 'c' };
// @ts-expect-error city must be a string
export const badInput: ToolInputs['maps__get-weather'] = { city: 1 };
export const viaRuntime: ToolInput<'echo'> = { message: 'hi' };
export const runtimeName: RuntimeToolName = 'short-url__normalize';
export const skill: SkillName = 'reviewer__review';
export const agent: AgentName = 'icqq';
export const count: number = manifest.tools.length;
`,
    );
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUnusedLocals: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          skipLibCheck: true,
          types: [],
          // The seed imports these names; in a real bot they are installed packages.
          paths: {
            '@zhin.js/tool': [join(REPO, 'runtime/index.ts')],
            '@zhin.js/prompt-section': [join(REPO, 'runtime/index.ts')],
          },
        },
        files: ['zhin-capabilities.gen.ts', 'types-check.ts'],
      }),
    );
    const checked = tsc(root);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    expect(result.code).not.toContain('@ts-nocheck');
    expect(result.code).toContain('import("./tools/js-tool/index.js" as string)');
    // Its types stripped (here by Vite's transform, as a bundler does), the loaders load the JS modules.
    const { manifest } = (await import(`${result.outFile}?t=${Date.now()}`)) as { manifest: CapabilityManifest };
    const js = manifest.tools.find((t) => t.qualifiedName === 'js-tool')!;
    expect(((await js.load()) as { default: { description: string } }).default.description).toBe('A JS tool');
    const hook = manifest.hooks.find((h) => h.name === 'js-hook')!;
    expect(((await hook.load()) as { default: { events: string[] } }).default.events).toEqual(['tool:after']);
    const plugin = manifest.plugins.find((p) => p.owner === 'js-plugin')!;
    expect(((await plugin.entry!()) as { default: { name: string } }).default.name).toBe('js-plugin');
  });

  it('stays valid and inert whatever descriptions, instructions and JSON contain', async () => {
    // With the characters that make a line read otherwise than it is (Trojan Source): a
    // right-to-left override, isolates, invisible ones.
    const hostile =
      'q\' d" b` ${process.exit(1)} */ /* </script><script>alert(1)</script> \u2028 \u2029 \u202e rtl \u2066 \u200b\ufeff \\ end';
    const root = writeTree(tempDir('inert'), {
      'AGENTS.md': `# Main\n\n${hostile}\n`,
      'tools/evil/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({\n  description: ${JSON.stringify(hostile)},\n  inputSchema: { type: 'object', properties: { ${JSON.stringify(hostile)}: { type: 'string', description: ${JSON.stringify(hostile)} } } },\n  execute() { return 1; },\n});\n`,
      'skills/evil/SKILL.md': `---\nname: evil\ndescription: ${JSON.stringify(hostile)}\n---\n${hostile}\n`,
      'agents/evil/agent.json': JSON.stringify({ description: hostile }),
      'agents/evil/system.md': hostile,
      'agents/evil/boundaries.md': hostile,
      'agents/evil/conventions.md': hostile,
    });
    dirs.push(root);
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.code).not.toContain('</script>');
    expect(result.code).not.toContain('\u2028');
    // Not in any generated file: the main module, the tool table's shards, the validators.
    const generated = [
      result.outFile,
      ...readdirSync(`${result.outFile.replace(/\.ts$/, '')}.validators`).map((f) =>
        join(`${result.outFile.replace(/\.ts$/, '')}.validators`, f),
      ),
    ];
    expect(generated.length).toBeGreaterThan(2);
    for (const file of generated)
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/[\u2028\u2029\u202e\u2066\u200b\ufeff]/);
    // Importing the module evaluates it: the payload must come back as data, not run as code.
    const mod = (await import(`${result.outFile}?t=${Date.now()}`)) as {
      manifest: {
        tools: { description: string; inputSchema: { properties: Record<string, { description: string }> } }[];
        skills: { description: string; instructions: string }[];
        agents: { description: string; system: string }[];
        plugins: { agentsMd?: string }[];
      };
    };
    expect(mod.manifest.tools[0]!.description).toBe(hostile.trim());
    expect(mod.manifest.tools[0]!.inputSchema.properties[hostile]!.description).toBe(hostile);
    expect(mod.manifest.skills[0]!.description).toBe(hostile.trim());
    expect(mod.manifest.skills[0]!.instructions).toContain(hostile.trim());
    expect(mod.manifest.agents[0]!.description).toBe(hostile);
    expect(mod.manifest.agents[0]!.system).toBe(hostile);
    expect(mod.manifest.plugins[0]!.agentsMd).toContain(hostile);
  });

  it('keeps the tool table a plain string literal through esbuild (no template literal)', async () => {
    // Transpilers re-quote string literals by their content: apostrophes in the JSON would make
    // esbuild print a template literal, which V8 compiles markedly slower at 5,000 tools.
    const root = writeTree(tempDir('quotes'), {
      'tools/quote/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: "It's the user's quote", inputSchema: { type: 'object', properties: { "it's": { type: 'string' } } }, execute() { return 1; } });\n`,
    });
    dirs.push(root);
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(0);
    const { transformSync } = await import('esbuild');
    const js = transformSync(result.code, { loader: 'ts', format: 'esm' }).code;
    expect(js).toMatch(/JSON\.parse\('\[/);
    expect(js).not.toMatch(/JSON\.parse\(`/);
    const tableFile = join(root, 'table.mjs');
    writeFileSync(tableFile, js.replace(/^import .*$/gm, ''));
    const mod = (await import(`${tableFile}?t=${Date.now()}`)) as {
      manifest: { tools: { description: string; inputSchema: { properties: Record<string, unknown> } }[] };
    };
    expect(mod.manifest.tools[0]!.description).toBe("It's the user's quote");
    expect(Object.keys(mod.manifest.tools[0]!.inputSchema.properties)).toEqual(["it's"]);
  });

  it('is byte-identical whatever order files are created and read in', async () => {
    const source = join(FIXTURES, 'example-bot');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const abs = join(dir, name);
        if (statSync(abs).isDirectory()) walk(abs);
        else if (!name.endsWith('.gen.ts')) files.push(abs.slice(source.length + 1));
      }
    };
    walk(source);
    const forward = writeTree(
      tempDir('order-a'),
      Object.fromEntries(files.map((f) => [f, readFileSync(join(source, f), 'utf8')])),
    );
    const backward = writeTree(
      tempDir('order-b'),
      Object.fromEntries([...files].reverse().map((f) => [f, readFileSync(join(source, f), 'utf8')])),
    );
    dirs.push(forward, backward);
    const a = await createCompiler({ root: forward, cacheFile: false }).run({ write: false });
    const b = await createCompiler({ root: backward, cacheFile: false }).run({ write: false });
    expect(a.code).toBe(b.code);
    expect(a.code).toBe(readFileSync(join(source, 'expected.gen.ts'), 'utf8'));
    expect(a.code).not.toMatch(/\r/);

    // The layout itself does not depend on inventory order.
    const paths = [
      'tools/',
      'tools/b/',
      'tools/b/index.ts',
      'tools/a/',
      'tools/a/index.ts',
      'plugins/',
      'plugins/m/',
      'plugins/m/tools/',
      'plugins/m/tools/x/',
      'plugins/m/tools/x/index.ts',
    ];
    const sorted = collectUnits(buildLayout([...paths].sort(), ['plugin.ts'])).units.map((u) => `${u.owner}:${u.dir}`);
    const shuffled = collectUnits(buildLayout([...paths].reverse(), ['plugin.ts'])).units.map(
      (u) => `${u.owner}:${u.dir}`,
    );
    expect(shuffled).toEqual(sorted);
    expect(sorted).toContain('m:plugins/m/tools/x');
  });
});
