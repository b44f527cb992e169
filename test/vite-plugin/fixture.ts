/**
 * A small bot project for the build-plugin tests: tools importing the seed package
 * `@zhin.js/tool` (not installed: the plugin resolves it to zhin-gen/runtime) with Zod schemas,
 * a skill with a private tool, a sub-agent with a private tool, a child plugin, and an entry
 * (`src/main.ts`) that imports `virtual:zhin-capabilities` and calls tools through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { transform } from 'esbuild';
import type { Plugin as RollupPlugin } from 'rollup';
import type { InlineConfig } from 'vite';
import { REPO, tempDir, writeTree } from '../helpers.js';

export const tool = (
  description: string,
  schema = 'z.object({ message: z.string() })',
  result = '`echo: ${(input as { message: string }).message}`',
): string =>
  `import { defineAgentTool } from '@zhin.js/tool';
import { z } from 'zod';

export default defineAgentTool({
  description: ${JSON.stringify(description)},
  inputSchema: ${schema},
  async execute(input) {
    return ${result};
  },
});
`;

/** A tool without a schema (cheap to evaluate: no schema stage). */
export const plainTool = (description: string): string =>
  `import { defineAgentTool } from '@zhin.js/tool';

export default defineAgentTool({
  description: ${JSON.stringify(description)},
  async execute() {
    return ${JSON.stringify(description)};
  },
});
`;

export const ENTRY = `import { manifest } from 'virtual:zhin-capabilities';

export { manifest };

export async function call(name: string, input: unknown): Promise<unknown> {
  const entry = manifest.tools.find((t) => t.qualifiedName === name);
  if (!entry) throw new Error('no tool ' + name);
  const mod = (await entry.load()) as { default: { execute(input: unknown, context: unknown): Promise<unknown> } };
  return mod.default.execute(input, {});
}

if (import.meta.hot) import.meta.hot.accept();
`;

export const BOT: Record<string, string> = {
  'AGENTS.md': '# Bot\n\nBe helpful.\n',
  'tools/echo/index.ts': tool('Echo a message back'),
  'skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets people politely.\n---\nSay hello, then wave.\n',
  'skills/greet/tools/wave/index.ts': tool(
    'Wave at someone',
    'z.object({ to: z.string() })',
    '`*waves at ${(input as { to: string }).to}*`',
  ),
  'agents/helper/agent.json': JSON.stringify({ description: 'Helps with chores.' }, null, 2),
  'agents/helper/system.md': '# System\n\nYou help.\n',
  'agents/helper/boundaries.md': '# Boundaries\n\nNo harm.\n',
  'agents/helper/conventions.md': '# Helper conventions\n\nBe brief.\n',
  'agents/helper/tools/sweep/index.ts': plainTool('Sweep the floor'),
  'plugins/maps/tools/get-weather/index.ts': tool(
    'Current weather for a city',
    'z.object({ city: z.string() })',
    '`sunny in ${(input as { city: string }).city}`',
  ),
  'src/main.ts': ENTRY,
};

export const BOT_TOOLS = ['echo', 'greet__wave', 'helper__sweep', 'maps__get-weather'];

export function makeBot(prefix: string, extra: Record<string, string> = {}): string {
  return writeTree(tempDir(prefix), { ...BOT, ...extra });
}

export function readManifest(root: string, out = 'zhin-capabilities.gen.ts'): string {
  const file = join(root, out);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/**
 * Tool names listed in the manifest file on disk: in its own table, or (a large bot) in the
 * shards it imports from its generated folder (compiler/emit/shards.ts).
 */
export function manifestTools(root: string): string[] {
  const text = readManifest(root);
  const tables = [text];
  for (const [, shard] of text.matchAll(
    /^import shard\d+ from "\.\/(zhin-capabilities\.gen\.validators\/tools-[^"]+)\.js";$/gm,
  ))
    tables.push(readManifest(root, `${shard}.ts`));
  // The tool table is one JSON line per tool inside `JSON.parse('[\ … ]')`.
  return tables.flatMap((table) => [...table.matchAll(/^,?\{"qualifiedName":"([^"]+)"/gm)].map((m) => m[1]!)).sort();
}

export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A real WebSocket client on the Vite HMR socket. Node 20 has `WebSocket` only behind
 * `--experimental-websocket`, so unless the test process has it, the client runs in a child
 * Node process with the flag and relays every message as one JSON line.
 */
export interface HmrClient {
  readonly messages: { type: string; [key: string]: unknown }[];
  close(): void;
}

export async function connectHmr(url: string): Promise<HmrClient> {
  const messages: HmrClient['messages'] = [];
  const Native = (
    globalThis as {
      WebSocket?: new (
        url: string,
        protocol: string,
      ) => {
        onmessage: ((e: { data: unknown }) => void) | null;
        onopen: (() => void) | null;
        onerror: ((e: unknown) => void) | null;
        close(): void;
      };
    }
  ).WebSocket;
  if (Native) {
    const socket = new Native(url, 'vite-hmr');
    socket.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = reject;
    });
    await waitFor(() => messages.some((m) => m.type === 'connected'), 'the HMR connected message');
    return { messages, close: () => socket.close() };
  }
  const script = `const ws = new WebSocket(process.argv[1], 'vite-hmr');
ws.onopen = () => console.log(JSON.stringify({ type: '__open' }));
ws.onmessage = (e) => console.log(String(e.data));
ws.onerror = (e) => { console.error(String(e.message || e)); process.exit(1); };
process.stdin.on('end', () => { ws.close(); process.exit(0); });
process.stdin.resume();`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-websocket', '--no-warnings', '-e', script, url],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let buffer = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) messages.push(JSON.parse(line));
    }
  });
  await waitFor(() => messages.some((m) => m.type === 'connected'), 'the HMR connected message');
  return {
    messages,
    close: () => {
      child.stdin!.end();
      setTimeout(() => child.kill(), 1_000).unref();
    },
  };
}

/** Rollup has no TypeScript support of its own: strip types with esbuild, map `.js` to `.ts`. */
/** esbuild options that bundle a bot's `src/main.ts` (plugins are the caller's). */
export function esbuildBotOptions(root: string): {
  absWorkingDir: string;
  entryPoints: string[];
  bundle: true;
  splitting: true;
  platform: 'node';
  format: 'esm';
  outdir: string;
  conditions: string[];
  logLevel: 'silent';
} {
  return {
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outdir: 'dist',
    conditions: ['source'],
    logLevel: 'silent',
  };
}

export const rollupTs: RollupPlugin = {
  name: 'test-typescript',
  resolveId(id, importer) {
    if (id === 'zhin-gen/runtime') return join(REPO, 'runtime', 'index.ts');
    if (importer && id.startsWith('.') && id.endsWith('.js')) {
      const file = resolve(dirname(importer), `${id.slice(0, -3)}.ts`);
      if (existsSync(file)) return file;
    }
    return null;
  },
  async transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    return { code: (await transform(code, { loader: 'ts', format: 'esm', sourcefile: id })).code, map: null };
  },
};

/** A dev server on a fixture bot: no config file, a free loopback port, zhin-gen from its sources. */
export const devConfig = (root: string, extra: InlineConfig = {}): InlineConfig => ({
  root,
  configFile: false,
  logLevel: 'silent',
  server: { port: 0, strictPort: false, host: '127.0.0.1' },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  resolve: { conditions: ['source'] },
  ...extra,
});
