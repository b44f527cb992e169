/**
 * Write discipline and incremental runs: write only when bytes change, atomically; a persisted
 * per-unit cache means an unchanged tree is neither read nor parsed; watch events re-parse only
 * the changed unit; the compiler's own output never counts as an input change.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { copyFixture, pastATick, REPO, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { changedTime } from '../../../compiler/util/file-stat.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A cache file in a folder of its own, removed with the trees. */
function cacheFileIn(): string {
  const dir = tempDir('cachefile');
  dirs.push(dir);
  return join(dir, 'units.json');
}

/** The persisted unit cache as text: the base file and its journal, if any. */
function persistedText(cacheFile: string): string {
  return (
    readFileSync(cacheFile, 'utf8') +
    (existsSync(`${cacheFile}.journal`) ? readFileSync(`${cacheFile}.journal`, 'utf8') : '')
  );
}

function mkdir(root: string, rel: string): string {
  const dir = join(root, rel);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('write discipline and cache', () => {
  it('writes only when bytes differ and leaves no temp files', async () => {
    const root = copyFixture('example-bot', 'write');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const first = await compiler.run();
    expect(first.written).toBe(true);
    const mtime = statSync(first.outFile).mtimeMs;
    const second = await compiler.run();
    expect(second.written).toBe(false);
    expect(statSync(first.outFile).mtimeMs).toBe(mtime);
    expect(readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the last good manifest when the tree has errors', async () => {
    const root = copyFixture('example-bot', 'lastgood');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const good = await compiler.run();
    const tool = join(root, 'tools/echo/index.ts');
    writeFileSync(tool, readFileSync(tool, 'utf8').replace("description: 'Echo a message back'", "description: ''"));
    const bad = await createCompiler({ root, cacheFile: false }).run();
    expect(bad.errors).toBe(1);
    expect(bad.written).toBe(false);
    expect(readFileSync(good.outFile, 'utf8')).toBe(good.code);
  });

  it("keys the persisted cache on zhin-gen's version: another release's cache is never reused", async () => {
    const root = copyFixture('example-bot', 'cache-version');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const written = JSON.parse(readFileSync(cacheFile, 'utf8')) as { version: string };
    expect(written.version).toBe(`zhin-gen-cache-14@${version}`);
    expect((await createCompiler({ root, cacheFile }).run()).stats.parsed).toBe(0);
    // The same cache as an older release wrote it: parsed afresh, and the output compared again.
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').replace(written.version, 'zhin-gen-cache-3@0.0.1'));
    const upgraded = await createCompiler({ root, cacheFile }).run();
    expect(upgraded.stats.parsed).toBe(cold.stats.parsed);
    expect(upgraded.code).toBe(cold.code);
    // This release's previous format (plugin entries without runsSetup): a miss too.
    const current = readFileSync(cacheFile, 'utf8');
    writeFileSync(cacheFile, current.replace(`zhin-gen-cache-14@${version}`, `zhin-gen-cache-13@${version}`));
    const reformatted = await createCompiler({ root, cacheFile }).run();
    expect(reformatted.stats.parsed).toBe(cold.stats.parsed);
    expect(reformatted.code).toBe(cold.code);
  });

  it('reuses the persisted cache across processes, with a content-hash fallback', async () => {
    const root = copyFixture('example-bot', 'cache');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.stats.parsed).toBe(cold.stats.units + 1);
    expect(existsSync(cacheFile)).toBe(true);

    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.code).toBe(cold.code);
    expect(warm.written).toBe(false);

    // Touched but unchanged: content hash says it is the same file.
    const echo = join(root, 'tools/echo/index.ts');
    utimesSync(echo, new Date(), new Date(Date.now() + 5000));
    const touched = await createCompiler({ root, cacheFile }).run();
    expect(touched.stats.parsed).toBe(0);

    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo a message back, loudly'));
    const edited = await createCompiler({ root, cacheFile }).run();
    expect(edited.stats.parsed).toBe(1);
    expect(edited.code).toContain('Echo a message back, loudly');
    expect(edited.written).toBe(true);
  });

  it("reports a folder added to an agent's folder, even an empty one, as a fresh run does", async () => {
    const root = copyFixture('example-bot', 'agent-folder');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.diagnostics.some((d) => d.code === 'ZG1004')).toBe(false);
    mkdirSync(join(root, 'agents/reviewer/junk'));
    const cached = await createCompiler({ root, cacheFile }).run();
    const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(fresh.diagnostics.some((d) => d.code === 'ZG1004' && d.file.startsWith('agents/reviewer/junk'))).toBe(true);
    expect(cached.diagnostics).toEqual(fresh.diagnostics);
    expect(cached.warnings).toBe(fresh.warnings);
    rmSync(join(root, 'agents/reviewer/junk'), { recursive: true });
    const removed = await createCompiler({ root, cacheFile }).run();
    expect(removed.diagnostics).toEqual(cold.diagnostics);
  });

  it("keeps a touched file's new stamp, in the index and in the body, from a run that read the body for it", async () => {
    const root = copyFixture('example-bot', 'touched-kept');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    // Same bytes, an mtime of two minutes ago (a checkout): settled once its ctime is a tick
    // old, so the new stamp (the ctime, the later time) is kept.
    const echo = join(root, 'tools/echo/index.ts');
    const then = Date.now() / 1000 - 120;
    utimesSync(echo, then, then);
    pastATick();
    const touched = await createCompiler({ root, cacheFile }).run();
    expect(touched.stats.parsed).toBe(0);
    expect(touched.code).toBe(cold.code);
    const mtime = JSON.stringify(changedTime(statSync(echo)));
    const text = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    expect(text(`${cacheFile}.index`) + text(`${cacheFile}.index.journal`)).toContain(
      `"tools/echo/index.ts",${mtime},`,
    );
    expect(text(cacheFile) + text(`${cacheFile}.journal`)).toContain(`"tools/echo/index.ts",${mtime},`);
    const again = await createCompiler({ root, cacheFile }).run();
    expect(again.stats.parsed).toBe(0);
    expect(again.code).toBe(cold.code);
  });

  it('stamps a tool by its entry and what its schema read: an edit of a helper module beside it re-parses nothing, adding or removing one does', async () => {
    const root = copyFixture('example-bot', 'helpers');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    const helper = join(root, 'tools/short-url/client.ts');
    // The runtime code `execute` calls: the manifest names the file, never reads it.
    writeFileSync(helper, readFileSync(helper, 'utf8').replace('hash * 31', 'hash * 37'));
    const edited = await createCompiler({ root, cacheFile }).run();
    expect(edited.stats.parsed).toBe(0);
    expect(edited.code).toBe(cold.code);
    // Watch mode: the event names the helper, and nothing is parsed again either.
    const watching = createCompiler({ root, cacheFile });
    await watching.run();
    writeFileSync(helper, readFileSync(helper, 'utf8').replace('hash * 37', 'hash * 41'));
    watching.notify([{ type: 'change', path: helper }]);
    expect((await watching.run()).stats.parsed).toBe(0);
    await watching.dispose();
    // A helper added or removed is another file list: the tool is parsed again, its related files follow.
    const added = join(root, 'tools/short-url/extra.ts');
    writeFileSync(added, 'export const extra = 1;\n');
    const withExtra = await createCompiler({ root, cacheFile }).run();
    expect(withExtra.stats.parsed).toBe(1);
    expect(withExtra.model.tools.find((t) => t.qualifiedName === 'short-url')?.related).toContain(
      'tools/short-url/extra.ts',
    );
    rmSync(added);
    const removed = await createCompiler({ root, cacheFile }).run();
    expect(removed.stats.parsed).toBe(1);
    expect(removed.code).toBe(cold.code);
  });

  it('follows what a bundled schema read beyond its metafile: a module esbuild dropped, a tsconfig.json in the folder or the tree that maps an import', async () => {
    // `node:path` sends the schema to the bundle: what it read is what esbuild's metafile says,
    // which leaves out a module that adds no code and every tsconfig.json and package.json.
    const tool = (schema: string, imports: string) =>
      `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nimport { sep } from 'node:path';\n${imports}\nexport default defineAgentTool({ description: 'Tool A', inputSchema: z.object({ q: z.string().describe(${schema}) }), async execute() { return 1; } });\n`;
    const cases: readonly (readonly [string, Record<string, string>, readonly [string, string]])[] = [
      [
        'a module that adds no code until an edit gives it a side effect',
        {
          'tools/a/index.ts': tool("String((globalThis as { __D?: string }).__D ?? 'none') + sep", "import './h';"),
          'tools/a/h.ts': "import { x } from './n';\nexport const a = x;\n",
          'tools/a/n.ts': 'export const x = 1;\n',
        },
        ['tools/a/n.ts', "(globalThis as { __D?: string }).__D = 'edited';\nexport const x = 1;\n"],
      ],
      [
        'a tsconfig.json whose paths map the import',
        {
          'tools/a/index.ts': tool('D + sep', "import { D } from '#v';"),
          'tools/a/v1.ts': "export const D = 'one';\n",
          'tools/a/v2.ts': "export const D = 'two';\n",
          'tools/a/tsconfig.json': '{"compilerOptions":{"paths":{"#v":["./v1.ts"]}}}\n',
        },
        ['tools/a/tsconfig.json', '{"compilerOptions":{"paths":{"#v":["./v2.ts"]}}}\n'],
      ],
      [
        "the tree's own tsconfig.json, whose paths map the import (outside the tool's folder)",
        {
          'tools/a/index.ts': tool('D + sep', "import { D } from '#v';"),
          'tools/a/v1.ts': "export const D = 'one';\n",
          'tools/a/v2.ts': "export const D = 'two';\n",
          'tsconfig.json': '{"compilerOptions":{"paths":{"#v":["./tools/a/v1.ts"]}}}\n',
        },
        ['tsconfig.json', '{"compilerOptions":{"paths":{"#v":["./tools/a/v2.ts"]}}}\n'],
      ],
    ];
    for (const [what, files, [path, text]] of cases) {
      const root = tempDir('bundled-folder');
      dirs.push(root);
      writeTree(root, files);
      settleTree(root);
      const cacheFile = cacheFileIn();
      await createCompiler({ root, cacheFile }).run();
      writeTree(root, { [path]: text });
      settleTree(root);
      const cached = await createCompiler({ root, cacheFile }).run();
      const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
      expect(cached.code, what).toBe(fresh.code);
    }
  });

  it("never vouches for a bundled schema's module that was written after esbuild read it", async () => {
    // The schema goes to the bundle (`node:fs`); evaluating it rewrites its own module once,
    // after esbuild has read it and before the run stamps what the bundle read: the manifest
    // holds the old field, and the file on disk has the new one. (A save during a slow schema
    // evaluation does the same; this makes it happen every time.) The strings are cut so that
    // only the schema line itself holds the old text.
    const root = tempDir('bundled-race');
    dirs.push(root);
    const format = join(root, 'tools/a/format.ts');
    writeTree(root, {
      'tools/a/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { input } from './format.js';\nexport default defineAgentTool({ description: 'Tool A', inputSchema: input, async execute() { return 1; } });\n`,
      'tools/a/format.ts': `import { readFileSync, writeFileSync } from 'node:fs';\nimport { z } from 'zod';\nconst file = ${JSON.stringify(format)};\nconst old = 'z.object({ ' + 'url';\nconst text = readFileSync(file, 'utf8');\nif (text.includes(old)) writeFileSync(file, text.replace(old, 'z.object({ ' + 'uri'));\nexport const input = z.object({ url: z.string().describe(typeof text) });\n`,
    });
    settleTree(root);
    const cacheFile = cacheFileIn();
    const first = await createCompiler({ root, cacheFile }).run();
    expect(first.code).toContain('url');
    expect(readFileSync(format, 'utf8')).toContain('z.object({ uri');
    // Older than a tick, as a file saved a while ago: only the content says it changed.
    settleTree(root);
    const cached = await createCompiler({ root, cacheFile }).run();
    const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(fresh.code).toContain('uri');
    expect(cached.code).toBe(fresh.code);
  });

  it('re-parses only the changed unit from watch events and ignores its own output', async () => {
    const root = copyFixture('example-bot', 'notify');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const cold = await compiler.run();
    compiler.notify([{ type: 'change', path: cold.outFile }]);
    const own = await compiler.run();
    expect(own.stats.parsed).toBe(0);

    const dir = join(root, 'tools/ping');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'index.ts'),
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Ping', execute: () => 'pong' });\n",
    );
    compiler.notify([
      { type: 'addDir', path: dir },
      { type: 'add', path: join(dir, 'index.ts') },
    ]);
    const added = await compiler.run();
    expect(added.stats.parsed).toBe(1);
    expect(added.model.tools.map((t) => t.qualifiedName)).toContain('ping');

    rmSync(dir, { recursive: true });
    compiler.notify([{ type: 'unlinkDir', path: dir }]);
    const removed = await compiler.run();
    expect(removed.stats.parsed).toBe(0);
    expect(removed.model.tools.map((t) => t.qualifiedName)).not.toContain('ping');
    expect(removed.code).toBe(cold.code);
  });

  it('skips emit for an unchanged tree only while the output is the one it wrote', async () => {
    const root = copyFixture('example-bot', 'vouch');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.code).toBe(cold.code);
    // Hand-edited output: the stamp no longer matches, so it is regenerated and rewritten.
    writeFileSync(cold.outFile, `${cold.code}// edited\n`);
    const repaired = await createCompiler({ root, cacheFile }).run();
    expect(repaired.written).toBe(true);
    expect(readFileSync(cold.outFile, 'utf8')).toBe(cold.code);
    // A check (no write) after an edit caches the new unit; the next check must still see the
    // difference between the tree and the file on disk.
    const echo = join(root, 'tools/echo/index.ts');
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo it back'));
    const firstCheck = await createCompiler({ root, cacheFile }).run({ write: false });
    const secondCheck = await createCompiler({ root, cacheFile }).run({ write: false });
    expect(secondCheck.code).toBe(firstCheck.code);
    expect(secondCheck.code).toContain('Echo it back');
    expect(readFileSync(cold.outFile, 'utf8')).not.toContain('Echo it back');
    // AGENTS.md is read by no unit of this tree's tools, but it is part of the output.
    writeFileSync(join(root, 'AGENTS.md'), '# Main\n\nChanged.\n');
    const changed = await createCompiler({ root, cacheFile }).run();
    expect(changed.code).toContain('Changed.');
    expect(changed.written).toBe(true);
  });

  it('persists a small change as a journal line, folds the journal into the base once it grows, and ignores a doubtful journal', async () => {
    const root = copyFixture('example-bot', 'journal');
    // Files written within a timestamp tick of a run are hashed again by the next (cache/racy.ts).
    settleTree(root);
    const cacheFile = cacheFileIn();
    const journal = `${cacheFile}.journal`;
    dirs.push(root);
    await createCompiler({ root, cacheFile }).run();
    const base = statSync(cacheFile);
    expect(existsSync(journal)).toBe(false);

    // One changed tool, a fresh process: one journal line, the base is not rewritten.
    const echo = join(root, 'tools/echo/index.ts');
    const original = readFileSync(echo, 'utf8');
    writeFileSync(echo, original.replace('Echo a message back', 'Echo once'));
    expect((await createCompiler({ root, cacheFile }).run()).stats.parsed).toBe(1);
    expect(statSync(cacheFile).mtimeMs).toBe(base.mtimeMs);
    expect(readFileSync(journal, 'utf8')).toContain('Echo once');
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.code).toContain('Echo once');

    // A line cut short (a crash mid-write) ends what is applied: that unit is parsed again.
    writeFileSync(echo, original.replace('Echo a message back', 'Echo twice'));
    expect((await createCompiler({ root, cacheFile }).run()).stats.parsed).toBe(1);
    const text = readFileSync(journal, 'utf8');
    writeFileSync(journal, text.slice(0, text.indexOf('Echo twice')));
    const cut = await createCompiler({ root, cacheFile }).run();
    expect(cut.stats.parsed).toBe(1);
    expect(cut.code).toContain('Echo twice');

    // A journal written for another base is not applied at all.
    writeFileSync(
      journal,
      `${JSON.stringify({ base: 'another' })}\n${JSON.stringify({ k: 'tool:tools/echo', e: {} })}\n`,
    );
    const foreign = await createCompiler({ root, cacheFile }).run();
    expect(foreign.code).toContain('Echo twice');

    // Many changes: the journal outgrows a quarter of the base and is folded into a new base.
    for (let i = 0; i < 40 && existsSync(journal); i++) {
      writeFileSync(echo, original.replace('Echo a message back', `Echo ${'x'.repeat(200)} ${i}`));
      await createCompiler({ root, cacheFile }).run();
    }
    expect(existsSync(journal)).toBe(false);
    expect(statSync(cacheFile).mtimeMs).not.toBe(base.mtimeMs);
    const folded = await createCompiler({ root, cacheFile }).run();
    expect(folded.stats.parsed).toBe(0);
  });

  it('in watch mode writes the unit cache once edits settle and at dispose, not per edit', async () => {
    const root = copyFixture('example-bot', 'persist');
    const cacheFile = cacheFileIn();
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile });
    await compiler.run();
    const persisted = statSync(cacheFile).mtimeMs;
    const echo = join(root, 'tools/echo/index.ts');
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo settled'));
    compiler.notify([{ type: 'change', path: echo }]);
    expect((await compiler.run()).stats.parsed).toBe(1);
    expect(statSync(cacheFile).mtimeMs).toBe(persisted);
    // After a quiet moment the cache catches up on its own...
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(persistedText(cacheFile)).toContain('Echo settled');
    // ...and dispose() flushes whatever the last edit changed.
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo settled', 'Echo disposed'));
    compiler.notify([{ type: 'change', path: echo }]);
    await compiler.run();
    await compiler.dispose();
    const fresh = await createCompiler({ root, cacheFile }).run();
    expect(fresh.stats.parsed).toBe(0);
    expect(fresh.code).toContain('Echo disposed');
  });

  it('in watch mode re-reads AGENTS.md only when an event names it', async () => {
    const root = copyFixture('example-bot', 'agents-md');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await compiler.run();
    const agentsMd = join(root, 'AGENTS.md');
    writeFileSync(agentsMd, '# Main\n\nSecond version.\n');
    // An unrelated event: the text from the last run is kept (no event, no read).
    compiler.notify([{ type: 'change', path: join(root, 'tools/echo/index.ts') }]);
    expect((await compiler.run()).code).not.toContain('Second version.');
    compiler.notify([{ type: 'change', path: agentsMd }]);
    const changed = await compiler.run();
    expect(changed.code).toContain('Second version.');
    expect(changed.written).toBe(true);
  });

  it('in watch mode re-emits a skill whose SKILL.md or resolved tools changed, and only then', async () => {
    const root = copyFixture('example-bot', 'skill-edit');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const cold = await compiler.run();
    const skill = join(root, 'skills/short-url/SKILL.md');
    const original = readFileSync(skill, 'utf8');
    writeFileSync(skill, original.replace('explain the result.', 'explain it twice.'));
    compiler.notify([{ type: 'change', path: skill }]);
    const edited = await compiler.run();
    expect(edited.code).toContain('explain it twice.');
    expect(edited.code).not.toContain('explain the result.');
    // The skill lists the public tool short-url; removing that tool changes the skill's tools.
    const tool = join(root, 'tools/short-url');
    rmSync(tool, { recursive: true });
    compiler.notify([{ type: 'unlinkDir', path: tool }]);
    const removed = await compiler.run();
    const skillEntry = removed.model.skills.find((k) => k.name === 'short-url');
    expect(skillEntry?.tools).not.toContain('short-url');
    const skillsText = (code: string): string => code.slice(code.indexOf('  skills: ['), code.indexOf('  agents: ['));
    expect(skillsText(edited.code)).toContain('tools: ["short-url"');
    expect(skillsText(removed.code)).not.toContain('"short-url"]');
    expect(skillsText(removed.code)).not.toContain('tools: ["short-url"');
    expect(removed.code).toContain('explain it twice.');
    writeFileSync(skill, original);
    compiler.notify([{ type: 'change', path: skill }]);
    const restored = await compiler.run();
    expect(restored.code).toContain('explain the result.');
    expect(restored.code).not.toBe(cold.code);
  });

  it('in watch mode sees an edited schema fragment (helper modules are kept between runs only while unchanged)', async () => {
    const root = tempDir('fragment-edit');
    dirs.push(root);
    const tool = (name: string): string =>
      `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nimport { Shared } from '../shared.js';\nexport default defineAgentTool({ description: '${name}', inputSchema: z.object({ s: Shared }), execute: async () => 'ok' });\n`;
    const shared = join(root, 'tools/shared.ts');
    writeFileSync(join(mkdir(root, 'tools/a'), 'index.ts'), tool('a'));
    writeFileSync(join(mkdir(root, 'tools/b'), 'index.ts'), tool('b'));
    writeFileSync(shared, "import { z } from 'zod';\nexport const Shared = z.string().max(5);\n");
    const compiler = createCompiler({ root, cacheFile: false });
    const cold = await compiler.run();
    expect(cold.model.tools.map((t) => t.inputSchema.properties)).toEqual([
      { s: { type: 'string', maxLength: 5 } },
      { s: { type: 'string', maxLength: 5 } },
    ]);
    // Only tool a's event names a file of its unit; the fragment itself changed too.
    writeFileSync(shared, "import { z } from 'zod';\nexport const Shared = z.string().max(9).describe('edited');\n");
    compiler.notify([{ type: 'change', path: shared }]);
    const edited = await compiler.run();
    expect(edited.model.tools.map((t) => t.inputSchema.properties)).toEqual([
      { s: { type: 'string', maxLength: 9, description: 'edited' } },
      { s: { type: 'string', maxLength: 9, description: 'edited' } },
    ]);
    await compiler.dispose();
  });

  it('in watch mode finds the files of a new directory even when only the directory event arrives', async () => {
    const root = copyFixture('example-bot', 'new-dir');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const cold = await compiler.run();
    expect(cold.model.tools.map((t) => t.qualifiedName)).not.toContain('ping');
    // A copied tool folder: the watcher may report the folder before a watch on it exists.
    const dir = join(root, 'tools/ping');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'index.ts'),
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Ping back', execute: async () => 'pong' });\n",
    );
    compiler.notify([{ type: 'addDir', path: dir }]);
    const next = await compiler.run();
    expect(next.model.tools.map((t) => t.qualifiedName)).toContain('ping');
    expect(next.written).toBe(true);
    await compiler.dispose();
  });

  it('keeps events that arrive while a run is in flight for the next run', async () => {
    const root = copyFixture('example-bot', 'race');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await compiler.run();
    const echo = join(root, 'tools/echo/index.ts');
    const weather = join(root, 'plugins/maps/tools/get-weather/index.ts');
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo A'));
    compiler.notify([{ type: 'change', path: echo }]);
    const first = compiler.run();
    // While the first run is in flight, another file changes.
    writeFileSync(weather, readFileSync(weather, 'utf8').replace('Current weather for a city', 'Weather B'));
    compiler.notify([{ type: 'change', path: weather }]);
    await first;
    const second = await compiler.run();
    expect(second.code).toContain('Echo A');
    expect(second.code).toContain('Weather B');
  });

  it('coalesces runs requested while one is in flight', async () => {
    const root = copyFixture('example-bot', 'single');
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const runs = await Promise.all([compiler.run(), compiler.run(), compiler.run(), compiler.run()]);
    // One run in flight + one coalesced follow-up for the three requests made meanwhile.
    expect(runs[1]).toBe(runs[2]);
    expect(runs[2]).toBe(runs[3]);
    expect(runs[0]).not.toBe(runs[1]);
  });
});
