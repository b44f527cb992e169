import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Resolve `zhin-gen/*` self-references to the TypeScript sources (the "source" export
  // condition) so tests never run against a stale dist/.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Fails the run if any test left, changed or removed a file in the source tree.
    globalSetup: ['test/source-tree-guard.ts'],
    // eventsource-parser (used by the AI SDK) exports its TypeScript under the "source" condition,
    // which Node cannot load: the AI SDK chain (and the MCP SDK's HTTP client, which imports it
    // too) is transformed by Vite instead of imported natively.
    server: { deps: { inline: ['eventsource-parser', 'ai', /@ai-sdk\//, /@modelcontextprotocol\/sdk/] } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real builds and dev servers run in these tests; two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
