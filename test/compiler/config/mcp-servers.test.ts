/** The config's `mcpServers`: the runtime's rules, reported as located ZG5050–ZG5054 diagnostics. */
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler, loadConfig } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const config = `{
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", 3] },
    "web": { "url": "ftp://example.com/mcp" },
    "bad name": { "url": "https://example.com/mcp" },
    "both": { "command": "a", "url": "https://example.com" },
    "neither": { "env": { "TOKEN": 1 } },
    "typo": { "command": "srv", "timeout": 5000, "approval": "sometimes" },
    "list": []
  }
}
`;

describe('config mcpServers', () => {
  it('reports every problem at its position, with its own code', async () => {
    const root = writeTree(tempDir('cfg-mcp'), { 'zhin-gen.config.json': config });
    dirs.push(root);
    const { diagnostics, options } = await loadConfig(root);
    const seen = diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);
    expect(seen).toEqual([
      'ZG5053 3:92 Config option `mcpServers.files.args[2]`: must be a string',
      'ZG5053 4:21 Config option `mcpServers.web.url`: `url` must be an http:// or https:// URL, got "ftp://example.com/mcp"',
      'ZG5051 5:17 Config option `mcpServers.bad name`: server name "bad name" must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$ (it becomes the source mcp:bad name)',
      'ZG5052 6:13 Config option `mcpServers.both`: sets both `command` (stdio) and `url` (Streamable HTTP); choose one',
      'ZG5052 7:16 Config option `mcpServers.neither`: needs `command` (a stdio server) or `url` (a Streamable HTTP server)',
      'ZG5053 7:36 Config option `mcpServers.neither.env.TOKEN`: must be a string',
      'ZG5054 8:33 Config option `mcpServers.typo.timeout`: unknown option `timeout` (known: command, args, env, cwd, approval, trustAnnotations, timeoutMs, include, exclude, prefix, optional)',
      'ZG5053 8:62 Config option `mcpServers.typo.approval`: `approval` must be one of never, on-risk, once, always',
      'ZG5050 9:13 Config option `mcpServers.list`: must be an object: { command, args?, env?, cwd? } or { url, headers? }',
    ]);
    expect(diagnostics.every((d) => d.file === 'zhin-gen.config.json' && d.severity === 'error' && d.hint)).toBe(true);
    // An invalid list is never half-used.
    expect(options.mcpServers).toEqual({});
    // The compile reports them and writes nothing.
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(9);
    expect(result.written).toBe(false);
  });

  it('a valid list (TS config, HTTP and stdio) resolves as written', async () => {
    const servers = {
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { LOG: '1' } },
      remote: { url: 'https://example.com/mcp', headers: { authorization: 'Bearer x' }, approval: 'always' },
    };
    const root = writeTree(tempDir('cfg-mcp-ok'), {
      'zhin-gen.config.ts': `import { defineConfig } from 'zhin-gen';\nexport default defineConfig({ mcpServers: ${JSON.stringify(servers)} });\n`,
    });
    dirs.push(root);
    const { diagnostics, options } = await loadConfig(root);
    expect(diagnostics).toEqual([]);
    expect(options.mcpServers).toEqual(servers);
    const ts = writeTree(tempDir('cfg-mcp-ts'), {
      'zhin-gen.config.ts': `export default { mcpServers: { x: { command: 'a', cwd: '' } } };\n`,
    });
    dirs.push(ts);
    const located = (await loadConfig(ts)).diagnostics[0]!;
    expect([located.code, located.file, located.line, located.column]).toEqual(['ZG5053', 'zhin-gen.config.ts', 1, 51]);
  });
});
