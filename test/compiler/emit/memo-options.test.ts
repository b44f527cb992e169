/**
 * The emit stage's memos (compiler/emit/memo.ts) follow the options the text depends on: a
 * configuration change in a long-lived compiler (watch mode, a dev server) that changes the
 * import extension rewrites every module of a large bot's generated folder as a fresh run
 * writes it. The types module kept its text under a key without the extension.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { copyTree, removeDir, tempDir, writeTree } from '../../helpers.js';
import { generatedFiles, shardedTree } from '../sharded-tree.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('emit memos and a configuration change', () => {
  it('an import extension changed in a running compiler gives the modules of a fresh run', async () => {
    const root = writeTree(tempDir('memo-options'), shardedTree(80));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    compiler.notify([]);
    expect((await compiler.run()).errors).toBe(0);
    writeFileSync(join(root, 'zhin-gen.config.json'), JSON.stringify({ importExtension: '.ts' }));
    compiler.notify([{ type: 'change', path: join(root, 'zhin-gen.config.json') }]);
    expect((await compiler.run()).errors).toBe(0);
    await compiler.dispose();
    const fresh = copyTree(root, 'memo-options-fresh');
    dirs.push(fresh);
    await createCompiler({ root: fresh, cacheFile: false }).run();
    const files = generatedFiles(root);
    expect([...files.keys()].some((name) => name.endsWith('/types.ts'))).toBe(true);
    expect(files).toEqual(generatedFiles(fresh));
  });
});
