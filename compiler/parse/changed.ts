/**
 * The parse stage of one run: every unit and plugin entry whose cached result is not current is
 * parsed; the rest come from the unit cache. Parsers (TypeScript, YAML, Ajv, Zod) load only when
 * some unit actually needs parsing, so a run over an unchanged tree costs a walk, stats and the
 * emit.
 */
import type { ts as TS } from 'ts-morph';
import type { FileReader, UnitCache } from '../cache/units.js';
import { unitFiles, unitKey } from '../cache/unit-key.js';
import type { ResolvedOptions } from '../config/load.js';
import type { SchemaStage } from '../schema/stage.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { ParseEnv, UnitResult } from './units.js';

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
  readonly parsed: number;
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

  let parsed = 0;
  const results = new Map<CapabilityUnit, UnitResult>();
  for (const unit of inputs.units) {
    const key = unitKey(unit);
    const files = unitFiles(unit);
    let result = cache.lookup(key, files, dirty);
    if (!result) {
      const { parsers: p, env } = await parsers();
      result = p.parseUnit(unit, env);
      cache.store(key, files, result, reader);
      parsed++;
    }
    results.set(unit, result);
  }
  const entries = new Map<string, UnitResult>();
  for (const plugin of layout.plugins) {
    if (!plugin.entry) continue;
    const key = `plugin-entry:${plugin.entry}`;
    let result = cache.lookup(key, [plugin.entry], dirty);
    if (!result) {
      const { parsers: p, env } = await parsers();
      result = p.parsePluginEntry(plugin.entry, env);
      cache.store(key, [plugin.entry], result, reader);
      parsed++;
    }
    entries.set(plugin.dir, result);
  }
  return { results, entries, parsed, ts };
}
