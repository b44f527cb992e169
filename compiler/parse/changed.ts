/**
 * The parse stage of one run: every unit and plugin entry whose cached result is not current is
 * parsed; the rest come from the unit cache. Parsers (TypeScript, YAML, Ajv, Zod) load only when
 * some unit actually needs parsing, so a run over an unchanged tree costs a walk, stats and the
 * emit.
 */
import type { ts as TS } from 'ts-morph';
import type { FileReader, UnitCache } from '../cache/units.js';
import { stampedFilesOf, unitFiles, unitKey } from '../cache/unit-key.js';
import type { ResolvedOptions } from '../config/load.js';
import type { SchemaStage } from '../schema/stage.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { ParseEnv, UnitResult } from './units.js';
import { PENDING } from './unit-delta.js';

export interface ParseInputs {
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  readonly options: ResolvedOptions;
  readonly cache: UnitCache;
  readonly reader: FileReader;
  readonly schemas: SchemaStage;
  /** Paths changed since the last run; undefined = verify every file by stat. */
  readonly dirty: ReadonlySet<string> | undefined;
  /** The TypeScript the compiler loaded in an earlier run (kept by the compiler instance). */
  readonly ts: typeof TS | undefined;
}

export interface ParseOutcome {
  readonly results: Map<CapabilityUnit, UnitResult>;
  /** Plugin entry results by plugin directory. */
  readonly entries: Map<string, UnitResult>;
  /**
   * The units whose results this run replaced, when `results` is the last run's map patched in
   * place (a watch-mode delta, ./unit-delta.ts); undefined when every unit was looked up.
   */
  readonly changed?: ReadonlySet<CapabilityUnit>;
  readonly parsed: number;
  /** Worker threads used (0: parsed on the main thread, or nothing to parse). */
  readonly workers: number;
  readonly ts: typeof TS | undefined;
}

export async function parseChanged(inputs: ParseInputs): Promise<ParseOutcome> {
  const { layout, options, cache, reader, dirty } = inputs;
  const agentsMd = new Map(layout.plugins.filter((p) => p.agentsMd).map((p) => [p.dir, p.agentsMd!]));
  let ts = inputs.ts;
  let loaded: { parsers: typeof import('./units.js'); env: ParseEnv } | undefined;
  const parsers = async (): Promise<{ parsers: typeof import('./units.js'); env: ParseEnv }> => {
    if (loaded) return loaded;
    const units = await import('./units.js');
    ts ??= (await import('../util/typescript.js')).ts;
    const extractSchema = await inputs.schemas.extractor(reader);
    const env: ParseEnv = {
      ts,
      readFile: (path) => reader.read(path),
      readProblem: (path) => reader.problem(path),
      modules: options.modules,
      customPermits: options.permits,
      extractSchema,
      agentsMdOf: (pluginDir) => {
        const file = agentsMd.get(pluginDir);
        if (!file) return undefined;
        const text = reader.read(file);
        return text === undefined ? undefined : { file, text };
      },
    };
    loaded = { parsers: units, env };
    return loaded;
  };

  // Every unit the cache cannot answer, in unit order (then the plugin entries). A watch-mode
  // run with the same units looks up only those its dirty files name (./unit-delta.ts): the
  // others keep the last run's result objects, and the maps are the last run's, patched.
  const delta = inputs.schemas.delta;
  const plan = delta.plan(inputs.units, layout.plugins, dirty);
  const results = plan?.results ?? new Map<CapabilityUnit, UnitResult>();
  const entries = plan?.entries ?? new Map<string, UnitResult>();
  // `read`: the files the unit's result is made from (cache/unit-key.ts `stampedFilesOf`).
  const misses: {
    key: string;
    files: readonly string[];
    read: readonly string[];
    unit?: CapabilityUnit;
    pluginDir: string;
  }[] = [];
  for (const unit of plan?.units ?? inputs.units) {
    const key = unitKey(unit);
    const files = unitFiles(unit);
    const result = cache.lookup(key, files, dirty);
    if (result) results.set(unit, result);
    else {
      // Held in unit order now, filled below: the map is in unit order without a second pass
      // (a unit the delta names is in the map already, and keeps its place).
      results.set(unit, PENDING);
      misses.push({ key, files, read: stampedFilesOf(unit), unit, pluginDir: unit.pluginDir });
    }
  }
  for (const plugin of layout.plugins) {
    if (!plugin.entry || (plan && !plan.plugins.has(plugin.dir))) continue;
    const key = `plugin-entry:${plugin.entry}`;
    const result = cache.lookup(key, [plugin.entry], dirty);
    if (result) entries.set(plugin.dir, result);
    else misses.push({ key, files: [plugin.entry], read: [plugin.entry], pluginDir: plugin.dir });
  }
  // The tree record saw a unit's file change and the cache's index finds none: the index is not
  // believed, and the units are looked up again in the bodies read whole (cache/units.ts).
  if (cache.contradicted()) {
    cache.distrustIndex();
    return parseChanged(inputs);
  }
  const place = (miss: (typeof misses)[number], result: UnitResult): void => {
    if (miss.unit) results.set(miss.unit, result);
    else entries.set(miss.pluginDir, result);
  };

  const pool = misses.length >= 2 ? await import('./pool.js') : undefined;
  let size = pool ? pool.poolSize(misses.length) : 0;
  if (pool && size > 0) {
    const { parseInPool, pooledReader } = pool;
    // The main thread parses its share too (pool.ts).
    const { parsers: p, env } = await parsers();
    const { outputs, workers } = await parseInPool(
      // A worker hashes the files it is given: those the result is made from.
      misses.map((m, index) => ({ index, files: m.read, ...(m.unit ? { unit: m.unit } : {}) })),
      { root: cache.root, modules: options.modules, permits: options.permits, agentsMd: [...agentsMd] },
      size,
      (job) => (job.unit ? p.parseUnit(job.unit, env) : p.parsePluginEntry(job.files[0]!, env)),
      pool.decidesByLoad(),
    );
    size = workers;
    misses.forEach((miss, i) => {
      const out = outputs[i]!;
      cache.store(miss.key, miss.files, out.result, pooledReader(out, reader), out.print, miss.read);
      place(miss, out.result);
    });
  } else {
    for (const miss of misses) {
      const { parsers: p, env } = await parsers();
      const result = miss.unit ? p.parseUnit(miss.unit, env) : p.parsePluginEntry(miss.files[0]!, env);
      cache.store(miss.key, miss.files, result, reader, undefined, miss.read);
      place(miss, result);
    }
  }
  // Plugin order (the loop above puts hits before misses); the delta's map is in that order already.
  let pluginEntries = entries;
  if (!plan) {
    pluginEntries = new Map<string, UnitResult>();
    for (const plugin of layout.plugins) {
      const result = entries.get(plugin.dir);
      if (result) pluginEntries.set(plugin.dir, result);
    }
  }
  const freshUnits = plan ? misses.flatMap((m) => (m.unit ? [m.unit] : [])) : inputs.units;
  const freshEntries = plan
    ? misses.filter((m) => !m.unit).map((m) => [m.pluginDir, m.files[0]!] as const)
    : layout.plugins.flatMap((p) => (p.entry ? [[p.dir, p.entry] as const] : []));
  delta.parsed(inputs.units, layout.plugins, results, pluginEntries, freshUnits, freshEntries, unitFiles);
  return {
    results,
    entries: pluginEntries,
    ...(plan ? { changed: new Set(freshUnits) } : {}),
    parsed: misses.length,
    workers: size,
    ts,
  };
}
