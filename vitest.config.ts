import { defineConfig } from 'vitest/config';

// Node reads NODE_EXTRA_CA_CERTS at every process start (~0.1 s of CPU for a system bundle), and
// the suite starts hundreds of Node processes (one worker per test file, every CLI run, every
// child) that never open a TLS connection. Only npm talks to the registry: test/package/pack.ts
// hands the variable back to the npm commands it runs (REGISTRY_ENV).
const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS;
if (extraCaCerts !== undefined) {
  process.env.ZHIN_GEN_TEST_EXTRA_CA_CERTS = extraCaCerts;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

export default defineConfig({
  // Resolve `zhin-gen/*` self-references to the TypeScript sources (the "source" export
  // condition) so tests never run against a stale dist/.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Fails the run if any test left, changed or removed a file in the source tree; gives the
    // run a temporary directory of its own, removed afterwards (test/suite-tmp.ts).
    globalSetup: ['test/source-tree-guard.ts', 'test/suite-tmp.ts'],
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
