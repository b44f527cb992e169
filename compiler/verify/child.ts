/**
 * Child-process side of load verification. Started by pool.ts with tsx's ESM loader
 * (`--import tsx`), so it imports the project's modules exactly as written — TypeScript, the
 * project's tsconfig, its real dependencies — and runs their top-level code, which the compiler
 * never does. One task at a time over IPC; every outcome is reported before the next task
 * arrives, so a module that hangs or kills the process costs only its own result.
 */
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { project, type Projection } from '../schema/project.js';
import { ALIAS_HOOKS } from './alias-hooks.js';
import type {
  ChildMessage,
  ChildSetup,
  DefinitionReport,
  ImportSeen,
  JsonValue,
  ParentMessage,
  Shown,
  VerifyTask,
} from './protocol.js';

const setup = JSON.parse(process.argv[2] ?? '{}') as ChildSetup;
// The hooks post the packages modules import on this port (alias-hooks.ts); unreferenced, so an
// idle port never keeps the event loop alive (which is how a stalled import is told apart).
const channel = new MessageChannel();
register(`data:text/javascript,${encodeURIComponent(ALIAS_HOOKS)}`, {
  data: { ...setup, port: channel.port2 },
  transferList: [channel.port2],
});
let seen: ImportSeen[] = [];
let echoed: (() => void) | undefined;
channel.port1.on('message', (message: ImportSeen | 'echo') => {
  if (message === 'echo') echoed?.();
  else seen.push(message);
});
channel.port1.unref();

/** The imports posted so far: the echo of a message sent now comes after every earlier post. */
async function importsSoFar(): Promise<ImportSeen[]> {
  channel.port1.ref();
  await new Promise<void>((resolve) => {
    echoed = resolve;
    channel.port1.postMessage('echo');
  });
  echoed = undefined;
  channel.port1.unref();
  const out = seen;
  seen = [];
  return out;
}

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

class ImportFailure extends Error {
  constructor(
    message: string,
    readonly stalled: boolean,
  ) {
    super(message);
  }
}

/** The message only: the stack points into tsx and this runner as much as into the module. */
function messageOf(error: unknown): string {
  if (error instanceof ImportFailure) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`;
}

/** Fails the import in flight (set only while one is). */
let failCurrent: ((error: ImportFailure) => void) | undefined;

// The event loop ran dry while an import is pending: its top-level await can never settle.
process.on('beforeExit', () =>
  failCurrent?.(new ImportFailure('its top-level await never settles (nothing is left that could settle it)', true)),
);
// Thrown from a timer or an unawaited promise the module started: in the bot this crashes the
// process too. Blamed on the module being imported; stray ones after that cannot be attributed.
process.on('uncaughtException', (error) =>
  failCurrent?.(new ImportFailure(`threw asynchronously while loading: ${messageOf(error)}`, false)),
);
process.on('unhandledRejection', (error) =>
  failCurrent?.(new ImportFailure(`rejected a promise nobody handles while loading: ${messageOf(error)}`, false)),
);

function importModule(file: string): Promise<unknown> {
  const failed = new Promise<never>((_, reject) => {
    failCurrent = reject;
  });
  // The IPC channel keeps the event loop alive; unreferenced while importing, the loop can run
  // dry, which is how a never-settling top-level await is told apart from a slow one.
  process.channel?.unref();
  return Promise.race([import(pathToFileURL(file).href), failed]).finally(() => {
    failCurrent = undefined;
    process.channel?.ref();
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : 'an object';
}

const FAIL: unique symbol = Symbol('not JSON');
type JsonValueOrFail = JsonValue | typeof FAIL;

/** A JSON copy of a field value, or what it is when JSON cannot hold it. */
function show(value: unknown): Shown {
  if (value === undefined) return { t: 'absent' };
  const seen: unknown[] = [];
  const copy = (v: unknown): JsonValueOrFail => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : FAIL;
    if (typeof v !== 'object' || seen.includes(v) || seen.length > 32) return FAIL;
    seen.push(v);
    try {
      if (Array.isArray(v)) {
        const items = v.map(copy);
        return items.includes(FAIL) ? FAIL : (items as JsonValue[]);
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== null && Object.getPrototypeOf(proto) !== null) return FAIL;
      const out: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined) continue;
        const c = copy(item);
        if (c === FAIL) return FAIL;
        out[key] = c;
      }
      return out;
    } finally {
      seen.pop();
    }
  };
  const copied = copy(value);
  return copied === FAIL ? { t: 'other', what: describe(value) } : { t: 'json', v: copied };
}

function projectSchema(value: unknown): Projection {
  try {
    return project(value);
  } catch (error) {
    return {
      kind: 'done',
      result: { ok: false, code: 'ZG2023', message: `converting the real inputSchema failed: ${messageOf(error)}` },
    };
  }
}

function reportOf(task: VerifyTask, definition: unknown): DefinitionReport {
  if (typeof definition !== 'object' || definition === null) return { notObject: describe(definition), fields: {} };
  const fields: Record<string, Shown> = {};
  for (const key of Object.keys(definition)) {
    if (key !== 'inputSchema') fields[key] = show((definition as Record<string, unknown>)[key]);
  }
  return task.kind === 'tool'
    ? { fields, schema: projectSchema((definition as { inputSchema?: unknown }).inputSchema) }
    : { fields };
}

async function verify(task: VerifyTask): Promise<void> {
  let module: { default?: unknown };
  try {
    module = (await importModule(task.file)) as { default?: unknown };
  } catch (error) {
    await send({
      type: 'error',
      id: task.id,
      message: messageOf(error),
      stalled: error instanceof ImportFailure && error.stalled,
    });
    return;
  }
  let report: DefinitionReport;
  try {
    report = reportOf(task, module.default);
  } catch (error) {
    // A getter on the definition that throws.
    await send({
      type: 'error',
      id: task.id,
      message: `reading its default export threw: ${messageOf(error)}`,
      stalled: false,
    });
    return;
  }
  const imports = await importsSoFar();
  if (imports.length > 0) await send({ type: 'imports', imports });
  await send({ type: 'result', id: task.id, report });
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'task') void verify(message.task);
});
process.on('disconnect', () => process.exit(0));
void send({ type: 'ready' });
