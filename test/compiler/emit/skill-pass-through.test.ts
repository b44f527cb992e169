/**
 * The Agent Skills keys zhin-gen does not use itself (`license`, `compatibility`, `metadata`,
 * `allowed-tools`) reach the manifest as written (docs/authoring.md, the SKILL.md keys table), and
 * a `metadata` key named like an Object.prototype member stays an own key of the loaded manifest.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const root = writeTree(tempDir('skill-pass-through'), {
  'skills/release/SKILL.md': `---
name: release
description: Cut a release of the bot
license: Apache-2.0
compatibility: Needs git and network access
metadata:
  author: 发布组
  version: "1.2"
  __proto__: {polluted: yes}
allowed-tools: Bash(git:*) Read
---
Tag, build, publish.
`,
  'skills/plain/SKILL.md': '---\nname: plain\ndescription: Nothing else\n---\nBody.\n',
});
afterAll(() => removeDir(root));

describe('SKILL.md keys passed through', () => {
  it('are in the manifest as written; a skill without them has none', async () => {
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(0);
    const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
      manifest: CapabilityManifest;
    };
    const release = manifest.skills.find((s) => s.name === 'release')!;
    expect(release).toMatchObject({
      license: 'Apache-2.0',
      compatibility: 'Needs git and network access',
      allowedTools: 'Bash(git:*) Read',
    });
    expect(Object.keys(release.metadata!)).toEqual(['author', 'version', '__proto__']);
    expect(release.metadata!.author).toBe('发布组');
    expect(Object.getPrototypeOf(release.metadata)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(release.metadata, '__proto__')?.value).toEqual({ polluted: 'yes' });
    const plain = manifest.skills.find((s) => s.name === 'plain')!;
    for (const key of ['license', 'compatibility', 'metadata', 'allowedTools']) expect(plain).not.toHaveProperty(key);
    const host = createCapabilityHost();
    await host.load(manifest);
    await host.close();
  });
});
