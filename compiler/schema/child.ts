/**
 * Child-process side of the schema fallback. esbuild bundles this file next to the tool entries
 * (so it runs under plain `node`, whether zhin-gen itself runs from sources or from dist/). It
 * receives `{ id, file }[]` over IPC, imports each bundled tool module in turn, projects
 * `default.inputSchema` with the same code as the fast path and reports every step, so the
 * parent can blame exactly the module that hangs or kills the process.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { project, type Projection } from './project.js';

export interface ChildTask {
  readonly id: string;
  /** Absolute path of the bundled entry. */
  readonly file: string;
}

export type ChildMessage =
  | { readonly type: 'start'; readonly id: string }
  | { readonly type: 'result'; readonly id: string; readonly projection: Projection }
  | { readonly type: 'error'; readonly id: string; readonly message: string }
  | { readonly type: 'done' };

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

/** The message only: a stack trace would point into the temporary bundle, not the user's file. */
function messageOf(error: unknown): string {
  if (error instanceof Stalled) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`;
}

class Stalled extends Error {}

/** Rejects when the event loop runs dry while an import is pending: its top-level await can never settle. */
let stalled: ((error: Stalled) => void) | undefined;
process.on('beforeExit', () =>
  stalled?.(new Stalled('top-level await never settled (nothing left that could resolve it)')),
);

function importModule(file: string): Promise<unknown> {
  const drained = new Promise<never>((_, reject) => {
    stalled = reject;
  });
  return Promise.race([import(pathToFileURL(file).href), drained]).finally(() => {
    stalled = undefined;
  });
}

async function run(tasks: readonly ChildTask[]): Promise<void> {
  for (const task of tasks) {
    await send({ type: 'start', id: task.id });
    try {
      const mod = (await importModule(task.file)) as { default?: unknown };
      const definition = mod.default;
      if (typeof definition !== 'object' || definition === null) {
        await send({ type: 'error', id: task.id, message: 'the module has no default-exported tool definition' });
        continue;
      }
      const projection = project((definition as { inputSchema?: unknown }).inputSchema);
      await send({ type: 'result', id: task.id, projection });
    } catch (error) {
      await send({ type: 'error', id: task.id, message: messageOf(error) });
    }
  }
  await send({ type: 'done' });
}

// Bundled CommonJS dependencies `require()` Node built-ins through esbuild's shim, which looks
// for a global `require` at call time; ESM has none.
(globalThis as { require?: NodeJS.Require }).require = createRequire(import.meta.url);
// A stray timer or promise of one tool must not take down the imports of the others.
process.on('uncaughtException', () => undefined);
process.on('unhandledRejection', () => undefined);
process.once('message', (tasks: readonly ChildTask[]) => {
  void run(tasks);
});
