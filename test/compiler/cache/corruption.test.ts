/**
 * A damaged unit cache costs a re-parse, never a failed run (docs/config.md): for each
 * corruption of `node_modules/.cache/zhin-gen/units.json` or its journal, `check` (the real CLI)
 * exits 0 without an internal error and finds the fresh manifest up to date; damaged again,
 * `generate` after an edit exits 0 and writes exactly what a fresh run writes, edit included.
 *
 * One tree, cases in order: each run heals the cache, the next case damages it again. The tool
 * tools/a flips between two descriptions, whose fresh manifests are taken first (no cache);
 * damage goes into entries the edit does not touch (tools/echo, the skill, …), so a damaged
 * entry that were trusted would show in the manifest the edit makes the run emit.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { cli, copyFixture, removeDir, toolSource, writeTree, type CliResult } from '../../helpers.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

let root: string;
let cacheFile: string;
let manifestFile: string;
const fresh = new Map<string, string>();
let state: 'Version 0' | 'Version A' = 'Version 0';

const toolA = (description: string): string =>
  toolSource(
    `{ description: '${description}', inputSchema: z.object({ q: z.string() }), async execute() { return 1; } }`,
  );

function run(command: 'generate' | 'check'): CliResult {
  const result = cli([command, '--root', root]);
  expect(`${result.stdout}${result.stderr}`).not.toContain('ZG9001');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return result;
}

function setState(next: typeof state): void {
  writeFileSync(join(root, 'tools/a/index.ts'), toolA(next));
  state = next;
}

function dropCache(): void {
  rmSync(cacheFile, { force: true });
  rmSync(`${cacheFile}.journal`, { force: true });
}

beforeAll(() => {
  root = copyFixture('example-bot', 'cache-corrupt');
  // A node_modules folder puts the cache where the issue found it; a tool with a warning gives
  // an entry with diagnostics.
  mkdirSync(join(root, 'node_modules'));
  writeTree(root, {
    'tools/a/index.ts': toolA(state),
    'tools/warned/index.ts': toolSource(
      `{ description: 'Has an unknown field', timeoutMs: 5000, async execute() { return 1; } }`,
    ),
  });
  cacheFile = join(root, 'node_modules/.cache/zhin-gen/units.json');
  manifestFile = join(root, 'zhin-capabilities.gen.ts');
  for (const next of ['Version A', 'Version 0'] as const) {
    setState(next);
    dropCache();
    run('generate');
    fresh.set(next, readFileSync(manifestFile, 'utf8'));
  }
  expect(fresh.get('Version 0')).not.toBe(fresh.get('Version A'));
  // Warm the cache again (the loop above left it holding "Version 0").
  run('generate');
});
afterAll(() => removeDir(root));

/**
 * units.json with its journal folded in (and the journal removed), so that what a case damages is
 * what the next run reads, not an entry a journal line overrides.
 */
function readBase(): JsonObject {
  const base = JSON.parse(readFileSync(cacheFile, 'utf8')) as JsonObject;
  const journalFile = `${cacheFile}.journal`;
  if (!existsSync(journalFile)) return base;
  const [header, ...lines] = readFileSync(journalFile, 'utf8').split('\n').map(parseLine);
  // Only a journal of this base, and only its well-formed lines (a case may have left bad ones).
  if (header?.base === base.id) {
    for (const change of lines) {
      if (typeof change?.k === 'string' && typeof change.e === 'object' && change.e !== null)
        entries(base)[change.k] = change.e;
      else if (typeof change?.o === 'object' && change.o !== null) base.output = change.o;
    }
  }
  rmSync(journalFile);
  writeFileSync(cacheFile, JSON.stringify(base));
  return base;
}

function parseLine(line: string): JsonObject | undefined {
  try {
    const value = JSON.parse(line) as Json;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function entries(base: JsonObject): JsonObject {
  return base.entries as JsonObject;
}

/** The first entry whose key starts with `prefix` (e.g. "tool:tools/a"). */
function entryKey(base: JsonObject, prefix: string): string {
  const key = Object.keys(entries(base)).find((k) => k === prefix || k.startsWith(prefix));
  if (!key) throw new Error(`no cache entry ${prefix}: ${Object.keys(entries(base)).join(', ')}`);
  return key;
}

/** Sets a value at a path of keys / indices inside a JSON value (the path must exist up to the last step). */
function setAt(value: Json, path: readonly (string | number)[], to: Json | undefined): void {
  let at = value as JsonObject | Json[];
  for (const step of path.slice(0, -1)) at = (at as Record<string | number, Json>)[step] as JsonObject | Json[];
  const last = path[path.length - 1]!;
  if (to === undefined) delete (at as Record<string | number, Json>)[last];
  else (at as Record<string | number, Json>)[last] = to;
}

/**
 * Rewrites units.json after changing one value inside the named entry (or the base, for '').
 * A damaged output record is dropped and `check` writes none: the second application of an
 * output case finds nothing to damage, and the edit run goes on without one.
 */
function inEntry(prefix: string, path: readonly (string | number)[], to: Json | undefined): () => void {
  return () => {
    const base = readBase();
    if (path[0] === 'output' && path.length > 1 && base.output === undefined) return;
    if (prefix === '') setAt(base, path, to);
    else setAt(entries(base)[entryKey(base, prefix)]!, path, to);
    writeFileSync(cacheFile, JSON.stringify(base));
  };
}

/** Writes a journal for the current base (or the header given) with these lines after it. */
function journal(lines: (base: JsonObject) => readonly string[], header?: string): () => void {
  return () => {
    const base = readBase();
    writeFileSync(
      `${cacheFile}.journal`,
      `${header ?? JSON.stringify({ base: base.id })}\n${lines(base).join('\n')}\n`,
    );
  };
}

/** A journal line replacing tools/echo's entry with a well-formed one that claims another description. */
function lyingEntry(base: JsonObject): string {
  const key = entryKey(base, 'tool:tools/echo');
  const entry = JSON.parse(JSON.stringify(entries(base)[key])) as JsonObject;
  setAt(entry, ['result', 'data', 'description'], 'From another base');
  return JSON.stringify({ k: key, e: entry });
}

const corruptions: readonly (readonly [string, () => void])[] = [
  ['a truncated file', () => writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').slice(0, 500))],
  ['an empty file', () => writeFileSync(cacheFile, '')],
  ['null', () => writeFileSync(cacheFile, 'null')],
  ['an array', () => writeFileSync(cacheFile, '[]')],
  ['a number', () => writeFileSync(cacheFile, '42')],
  ['a foreign version', inEntry('', ['version'], 'zhin-gen-cache-0')],
  ['base: configKey a number', inEntry('', ['configKey'], 7)],
  ['base: id a number', inEntry('', ['id'], 42)],
  ['base: entries null', inEntry('', ['entries'], null)],
  ['base: entries an array', inEntry('', ['entries'], [])],
  ['base: an unknown key (ignored)', inEntry('', ['extra'], true)],
  [
    'entries: every entry a number',
    () => {
      const base = readBase();
      for (const key of Object.keys(entries(base))) entries(base)[key] = 42;
      writeFileSync(cacheFile, JSON.stringify(base));
    },
  ],
  ['entry: files a string', inEntry('tool:tools/echo', ['files'], 'tools/a/index.ts')],
  ['entry: stamps null', inEntry('tool:tools/echo', ['stamps'], null)],
  // Flat stamps: path, mtimeMs, size, hash (compiler/cache/flat-stamps.ts); the tool's one file first.
  ['stamp: size a string', inEntry('tool:tools/echo', ['stamps', 2], '1')],
  ['stamp: hash missing', inEntry('tool:tools/echo', ['stamps', 3], undefined)],
  ['stamps: one slot short', inEntry('tool:tools/echo', ['stamps'], ['tools/echo/index.ts', 1, 1])],
  [
    'stamps: keyed by path (format 4)',
    inEntry('tool:tools/echo', ['stamps'], { 'tools/echo/index.ts': { mtimeMs: 1, size: 1, hash: 'h' } }),
  ],
  ['entry: hash null', inEntry('tool:tools/echo', ['hash'], null)],
  ['entry: an unknown key (ignored)', inEntry('tool:tools/echo', ['extra'], 1)],
  ['entry: result a number', inEntry('tool:tools/echo', ['result'], 1)],
  ['result: diagnostics an object', inEntry('tool:tools/echo', ['result', 'diagnostics'], {})],
  ['result: dependencies of numbers', inEntry('tool:tools/echo', ['result', 'dependencies'], [1])],
  ['data: an unknown kind', inEntry('tool:tools/echo', ['result', 'data', 'kind'], 'gadget')],
  ['tool: description a number', inEntry('tool:tools/echo', ['result', 'data', 'description'], 42)],
  ['tool: platforms of numbers', inEntry('tool:tools/echo', ['result', 'data', 'platforms'], [42])],
  ['tool: an unknown approval mode', inEntry('tool:tools/echo', ['result', 'data', 'requiresApproval'], 'sometimes')],
  ['tool: loc.line a string', inEntry('tool:tools/echo', ['result', 'data', 'loc', 'line'], '4')],
  [
    'tool: a schema snippet of no known kind',
    inEntry('tool:tools/echo', ['result', 'data', 'schema'], { kind: 'magic' }),
  ],
  ['schema outcome: ok a string', inEntry('tool:tools/echo', ['schema', 'ok'], 'yes')],
  ['schema outcome: schema an array', inEntry('tool:tools/echo', ['schema', 'schema'], [])],
  ['schema outcome: an unknown via', inEntry('tool:tools/echo', ['schema', 'via'], 'telepathy')],
  ['diagnostic: an unknown code', inEntry('tool:tools/warned', ['result', 'diagnostics', 0, 'code'], 'ZG0000')],
  ['diagnostic: hint a number', inEntry('tool:tools/warned', ['result', 'diagnostics', 0, 'hint'], 3)],
  ['skill: keywords a string', inEntry('skill:skills/short-url', ['result', 'data', 'keywords'], 'link')],
  ['agent: maxSteps a string', inEntry('agent:agents/reviewer', ['result', 'data', 'maxSteps'], '8')],
  [
    'prompt section: order null',
    inEntry('prompt-section:prompt-sections/project-rules', ['result', 'data', 'order'], null),
  ],
  ['hook: an unknown event', inEntry('hook:hooks/audit', ['result', 'data', 'events'], ['tool:during'])],
  [
    'plugin entry: hidden a string',
    inEntry('plugin-entry:plugin.ts', ['result', 'data', 'conditionalTools', 0, 'hidden'], 'no'),
  ],
  ['output record: digest a number', inEntry('', ['output', 'digest'], 1)],
  ['output record: null', inEntry('', ['output'], null)],
  ['journal: an entry that is a number', journal(() => ['{"k":"tool:tools/a","e":42}'])],
  [
    'journal: an entry with a null result',
    journal((base) => [
      JSON.stringify({
        k: entryKey(base, 'tool:tools/echo'),
        e: { ...(entries(base)[entryKey(base, 'tool:tools/echo')] as JsonObject), result: null },
      }),
    ]),
  ],
  ['journal: a key that is a number', journal(() => ['{"k":42,"e":{}}'])],
  ['journal: lines of no known shape', journal(() => ['null', '[1,2]', '"text"', '{"x":1}', '{"k":"tool:tools/a"}'])],
  ['journal: output records of the wrong shape', journal(() => ['{"o":"x"}', '{"o":{"digest":1}}'])],
  ['journal: a line cut short', journal(() => ['{"k":"tool:tools/a","e":{"fi'])],
  ['journal: naming another base', journal((base) => [lyingEntry(base)], JSON.stringify({ base: 'another-base' }))],
  ['journal: a header of the wrong shape', journal((base) => [lyingEntry(base)], '{"base":42}')],
  ['journal: a header that is not JSON', journal((base) => [lyingEntry(base)], '{"base')],
];

describe('a corrupted unit cache costs a re-parse, never a failed run', () => {
  it.each(corruptions)('%s', (_name, corrupt) => {
    // A failed case must not leave the next one a broken cache: start it over from a cold run.
    onTestFailed(() => {
      dropCache();
      cli(['generate', '--root', root]);
    });
    expect(existsSync(cacheFile)).toBe(true);
    corrupt();
    // Up to date: what check would write is byte for byte the fresh manifest on disk.
    expect(readFileSync(manifestFile, 'utf8')).toBe(fresh.get(state));
    const check = run('check');
    expect(check.stdout).toContain('output up to date');

    // Damaged again (check rewrote it), then an edit: the edit reaches the manifest.
    corrupt();
    setState(state === 'Version 0' ? 'Version A' : 'Version 0');
    run('generate');
    const manifest = readFileSync(manifestFile, 'utf8');
    expect(manifest).toContain(state);
    expect(manifest).toBe(fresh.get(state));
  });
});
