/**
 * Test fixtures: real tool / hook / plugin modules written to disk under test/tmp, and
 * hand-built manifests whose loaders import them — the shape the compiler emits.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  CapabilityManifest,
  ImMessage,
  ManifestAgent,
  ManifestHook,
  ManifestPlugin,
  ManifestPromptSection,
  ManifestSkill,
  ManifestTool,
} from '../../runtime/index.js';

declare global {
  // Side-effect log written by fixture modules when they are imported / executed.
  var __loaded: string[] | undefined;
  var __events: string[] | undefined;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const runtimeEntry = join(repoRoot, 'runtime', 'index.js');
let counter = 0;

export function loadedModules(): string[] {
  return (globalThis.__loaded ??= []);
}

export function events(): string[] {
  return (globalThis.__events ??= []);
}

export function resetGlobals(): void {
  globalThis.__loaded = [];
  globalThis.__events = [];
}

export class Fixture {
  readonly dir: string;

  constructor(label: string) {
    this.dir = join(repoRoot, 'test', 'tmp', `runtime-${label}-${process.pid}-${Date.now()}-${counter++}`);
    mkdirSync(this.dir, { recursive: true });
  }

  /** Writes a module; `RUNTIME` in the source becomes the relative import of runtime/index. */
  write(rel: string, source: string): string {
    const file = join(this.dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    let spec = relative(dirname(file), runtimeEntry).split('\\').join('/');
    if (!spec.startsWith('.')) spec = `./${spec}`;
    writeFileSync(file, source.replaceAll('RUNTIME', spec));
    return file;
  }

  loader(file: string): () => Promise<{ readonly default: unknown }> {
    const url = pathToFileURL(file).href;
    return () => import(/* @vite-ignore */ url) as Promise<{ readonly default: unknown }>;
  }

  /** A tool module that logs its import and each execution, then runs `body` (an async fn body). */
  toolModule(name: string, options: { schema?: string; extra?: string; body?: string; imports?: string } = {}): string {
    return this.write(
      `tools/${name}/index.ts`,
      `import { defineAgentTool } from 'RUNTIME';
${options.imports ?? ''}
(globalThis.__loaded ??= []).push(${JSON.stringify(name)});
export default defineAgentTool({
  description: ${JSON.stringify(`tool ${name}`)},
  ${options.schema ? `inputSchema: ${options.schema},` : ''}
  ${/\brequiresApproval\b/.test(options.extra ?? '') ? '' : "requiresApproval: 'never',"}
  ${options.extra ?? ''}
  async execute(input, context) {
    (globalThis.__events ??= []).push('execute:' + ${JSON.stringify(name)});
    ${options.body ?? 'return { echo: input, owner: context.owner };'}
  },
});
`,
    );
  }

  tool(qualifiedName: string, file: string, meta: Partial<Omit<ManifestTool, 'load'>> = {}): ManifestTool {
    return {
      qualifiedName,
      localName: meta.localName ?? qualifiedName.split('__').pop()!,
      owner: '',
      placement: 'plugin',
      description: `tool ${qualifiedName}`,
      inputSchema: { type: 'object' },
      requiresApproval: 'never',
      platforms: [],
      scopes: [],
      permissions: [],
      hidden: false,
      keywords: [],
      source: relative(this.dir, file).split('\\').join('/'),
      ...meta,
      load: this.loader(file),
    };
  }

  hook(id: string, file: string, meta: Partial<Omit<ManifestHook, 'load' | 'id'>> = {}): ManifestHook {
    return {
      id,
      name: id,
      owner: '',
      placement: 'plugin',
      events: ['tool:before', 'tool:after'],
      source: relative(this.dir, file),
      ...meta,
      load: this.loader(file),
    };
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function plugin(owner: string, extra: Partial<ManifestPlugin> = {}): ManifestPlugin {
  return { owner, dir: owner === '' ? '.' : `plugins/${owner}`, conditionalTools: [], ...extra };
}

export function skill(qualifiedName: string, meta: Partial<ManifestSkill> = {}): ManifestSkill {
  return {
    qualifiedName,
    name: qualifiedName.split('__').pop()!,
    owner: '',
    description: `skill ${qualifiedName}`,
    tools: [],
    platforms: [],
    scopes: [],
    permissions: [],
    keywords: [],
    tags: [],
    always: false,
    instructions: 'Do the thing.',
    source: 'skills/x/SKILL.md',
    ...meta,
  };
}

export function agent(qualifiedName: string, meta: Partial<ManifestAgent> = {}): ManifestAgent {
  return {
    qualifiedName,
    name: qualifiedName.split('__').pop()!,
    owner: '',
    description: `agent ${qualifiedName}`,
    platforms: [],
    tools: [],
    system: 's',
    boundaries: 'b',
    conventions: 'c',
    workflows: [],
    knowledge: [],
    source: 'agents/x/agent.json',
    ...meta,
  };
}

export function section(id: string, meta: Partial<ManifestPromptSection> = {}): ManifestPromptSection {
  const name = id.split(':').pop()!;
  return {
    id,
    name,
    owner: id.slice(0, id.lastIndexOf(':')),
    title: name[0]!.toUpperCase() + name.slice(1),
    content: 'Be kind.',
    layer: 'context',
    order: 50,
    retention: 'preferred',
    profiles: ['interactive'],
    platforms: [],
    source: `prompt-sections/${name}/index.ts`,
    ...meta,
  };
}

export function manifest(parts: Partial<Omit<CapabilityManifest, 'version'>> = {}): CapabilityManifest {
  return {
    version: 1,
    plugins: [plugin('')],
    tools: [],
    skills: [],
    agents: [],
    promptSections: [],
    hooks: [],
    ...parts,
  };
}

export function im(
  options: { adapter?: string; type?: string; channel?: string; user?: string; role?: string | string[] } = {},
): ImMessage {
  return {
    $adapter: options.adapter ?? 'qq',
    $channel: { id: options.channel ?? 'c1', ...(options.type !== undefined ? { type: options.type } : {}) },
    $sender: { id: options.user ?? 'u1', ...(options.role !== undefined ? { role: options.role } : {}) },
  };
}

/** A promise plus its settle functions. */
export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
