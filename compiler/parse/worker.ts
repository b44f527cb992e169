/**
 * A parse worker (parse/pool.ts): parses the batches of units the main thread sends with the
 * same parsers, reader and schema extractor a single-threaded run uses, and sends back each
 * result with the stamps and hashes of the files it read, which the unit cache records.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createReader } from '../cache/reader.js';
import { SchemaCache } from '../schema/stage.js';
import { resultPrint } from '../util/hash.js';
import { ts } from '../util/typescript.js';
import type { PoolJob, PoolOutput, PoolSetup } from './pool.js';
import { parsePluginEntry, parseUnit, type ParseEnv } from './units.js';

const setup = workerData as PoolSetup;
const reader = createReader(setup.root);
const extractSchema = await new SchemaCache(setup.root).extractor(reader);
const agentsMd = new Map(setup.agentsMd);
const env: ParseEnv = {
  ts,
  readFile: (path) => reader.read(path),
  readProblem: (path) => reader.problem(path),
  modules: setup.modules,
  customPermits: setup.permits,
  extractSchema,
  agentsMdOf: (pluginDir) => {
    const file = agentsMd.get(pluginDir);
    if (!file) return undefined;
    const text = reader.read(file);
    return text === undefined ? undefined : { file, text };
  },
};

parentPort!.on('message', (batch: readonly PoolJob[]) => {
  const out: PoolOutput[] = batch.map((job) => {
    const result = job.unit ? parseUnit(job.unit, env) : parsePluginEntry(job.files[0]!, env);
    const files: [string, string, number, number, number][] = [];
    for (const file of [...job.files, ...result.dependencies]) {
      const hash = reader.hashOf(file);
      const stamp = reader.stampOf(file);
      if (hash !== undefined && stamp !== undefined) files.push([file, hash, stamp.changedMs, stamp.size, stamp.ino]);
    }
    return { index: job.index, result, files, print: resultPrint(result) };
  });
  parentPort!.postMessage(out);
});
parentPort!.postMessage('ready');
