/**
 * A prompt section whose module computes its content (`content: RULES.join('\n')`): the compiler
 * accepts it (no ZG2030, no ZG2011) and emits the section's loader instead of its text, and
 * `host.load` reads the content from the module once per generation (runtime/prompt/section-content.ts).
 * A module that breaks, or a required section the computed text makes too long, rejects the
 * candidate by name: no turn assembles a prompt without a section it declares.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { type CapabilityManifest, CandidateRejectedError, createCapabilityHost } from '../../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const section = (body: string): string => `import { defineAgentPromptSection } from 'zhin-gen/runtime';\n${body}\n`;

async function compile(files: Record<string, string>) {
  const root = writeTree(tempDir('section-content'), files);
  dirs.push(root);
  const result = await createCompiler({ root, cacheFile: false }).run();
  const load = async (): Promise<CapabilityManifest> =>
    ((await import(`${result.outFile}?t=${Date.now()}`)) as { manifest: CapabilityManifest }).manifest;
  return { root, result, load };
}

describe('a prompt section whose module computes its content', () => {
  it('is compiled to its loader and assembled with the text the module computes', async () => {
    const { result, load } = await compile({
      'prompt-sections/rules/index.ts': section(
        "const RULES = ['Be brief.', 'Cite sources.'];\nexport default defineAgentPromptSection({ title: 'Rules', content: RULES.join('\\n'), retention: 'required', order: 90 });",
      ),
      'prompt-sections/plain/index.ts': section(
        "export default defineAgentPromptSection({ title: 'Plain', content: 'Literal text.' });",
      ),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.code).toContain('load: () => import("./prompt-sections/rules/index.js"),');
    expect(result.code).toContain('content: "Literal text.",');
    expect(result.code).not.toContain('Be brief');
    const host = createCapabilityHost();
    await host.load(await load());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const prompt = (await turn.systemPrompt()).text;
    expect(prompt).toContain('Be brief.\nCite sources.');
    expect(prompt.indexOf('Be brief.')).toBeLessThan(prompt.indexOf('Literal text.'));
    await turn.end();
    // The catalog counts its characters, never shows them.
    const listed = host.catalog().promptSections.find((s) => s.id === ':rules');
    expect(listed).toMatchObject({ contentChars: 'Be brief.\nCite sources.'.length });
    expect(JSON.stringify(host.catalog())).not.toContain('Be brief');
  });

  it('rejects the generation, naming the section, when the computed text breaks a rule or the module a contract', async () => {
    const { result, load } = await compile({
      'prompt-sections/rules/index.ts': section(
        "const RULES = ['Be brief.', 'Cite sources.'];\nexport default defineAgentPromptSection({ title: 'Rules', content: RULES.join('\\n'), retention: 'required', maxChars: 10 });",
      ),
    });
    // Nothing the build can measure: the runtime does.
    expect(result.errors).toBe(0);
    const host = createCapabilityHost();
    await expect(host.load(await load())).rejects.toThrow(
      /prompt section ":rules" \(prompt-sections\/rules\/index\.ts\) failed to load: defineAgentPromptSection: required content is 23 characters but `maxChars` is 10/,
    );
    // A module changed since the build, or a hand-made manifest: a default export that is no section.
    const manifest = await load();
    const stale = {
      ...manifest,
      promptSections: manifest.promptSections.map((p) => ({
        ...p,
        load: async () => ({ default: { title: 'Rules' } }),
      })),
    };
    const rejected = host.load(stale);
    await expect(rejected).rejects.toBeInstanceOf(CandidateRejectedError);
    await expect(rejected).rejects.toThrow(
      /prompt section ":rules" \(prompt-sections\/rules\/index\.ts\): the module's default export is not a defineAgentPromptSection/,
    );
    const neither = { ...manifest, promptSections: manifest.promptSections.map(({ load: _l, ...p }) => p) };
    await expect(host.load(neither)).rejects.toThrow(/prompt section ":rules" .* has neither content nor a loader/);
    expect(host.generation).toBe(0);
  });

  it('a content that is no string at all is still ZG2030, and a missing one says it is required', async () => {
    const { result } = await compile({
      'prompt-sections/a/index.ts': section("export default defineAgentPromptSection({ title: 'A', content: 42 });"),
      'prompt-sections/b/index.ts': section("export default defineAgentPromptSection({ title: 'B' });"),
    });
    expect(result.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['ZG2030', 'prompt-sections/a/index.ts', 'prompt-section "a": `content` must be a string'],
      ['ZG2030', 'prompt-sections/b/index.ts', 'prompt-section "b": `content` is required'],
    ]);
  });
});
