/**
 * Runs load-verification tasks in isolated child processes: a small pool (one child per core,
 * at most two by default) pulling from one queue, one task in flight per child, each with its
 * own time limit. A module that hangs is the one in flight when its timer fires: that child is
 * killed and a fresh one continues with the rest of the queue, so one bad module never hides
 * the others' results. A module that ends the process is blamed the same way.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { ChildMessage, ChildSetup, DefinitionReport, ImportSeen, ParentMessage, VerifyTask } from './protocol.js';

export type TaskOutcome =
  | { readonly ok: true; readonly report: DefinitionReport }
  | {
      readonly ok: false;
      readonly why: 'threw' | 'exited' | 'timeout' | 'stalled' | 'start';
      readonly message: string;
    };

export interface PoolOptions {
  /** The child entry (child.ts / child.js). */
  readonly childFile: string;
  /** Node `--import` argument that makes the child load TypeScript (tsx's ESM loader URL). */
  readonly loader: string;
  /** Working directory of the children (the project root, as when the bot runs). */
  readonly cwd: string;
  readonly setup: ChildSetup;
  /** Per-module time limit. */
  readonly timeoutMs: number;
  readonly concurrency?: number;
  /** The packages the modules imported (alias-hooks.ts), as the children report them. */
  readonly onImports?: (imports: readonly ImportSeen[]) => void;
}

/** A child that never gets as far as its first task (a broken loader, no memory) within this. */
const STARTUP_MS = 30_000;

interface Pending {
  readonly id: string;
  readonly resolve: (outcome: TaskOutcome) => void;
  readonly timer: NodeJS.Timeout;
}

class ChildWorker {
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private pending?: Pending;
  private stderr = '';
  private dead = false;

  constructor(private readonly options: PoolOptions) {
    this.child = fork(options.childFile, [JSON.stringify(options.setup)], {
      cwd: options.cwd,
      // Not the parent's flags (a test runner's, an inspector): the child is a plain Node + tsx.
      execArgv: ['--import', options.loader],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error(`the verification process did not start within ${STARTUP_MS / 1000} s`));
      }, STARTUP_MS);
      this.child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (message.type === 'imports') options.onImports?.(message.imports);
        else
          this.settle(
            message.id,
            message.type === 'result'
              ? { ok: true, report: message.report }
              : { ok: false, why: message.stalled ? 'stalled' : 'threw', message: message.message },
          );
      });
      this.child.on('error', (error) => {
        clearTimeout(timer);
        this.dead = true;
        reject(error);
        if (this.pending)
          this.settle(this.pending.id, {
            ok: false,
            why: 'exited',
            message: `the verification process failed: ${error.message}`,
          });
      });
      this.child.on('exit', (code, signal) => {
        clearTimeout(timer);
        this.dead = true;
        const last = this.lastStderrLine();
        reject(
          new Error(
            `the verification process ended before it was ready (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`,
          ),
        );
        if (this.pending)
          this.settle(this.pending.id, {
            ok: false,
            why: 'exited',
            message: `it ended the process while loading (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`,
          });
      });
    });
    // Rejections are taken by whoever awaits `ready`; this only keeps Node from reporting them.
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return !this.dead;
  }

  run(task: VerifyTask): Promise<TaskOutcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settle(task.id, {
          ok: false,
          why: 'timeout',
          message: `it did not finish loading within ${formatMs(this.options.timeoutMs)}`,
        });
        // The import may still be running (a busy loop, a pending timer): only a kill stops it.
        this.kill();
      }, this.options.timeoutMs);
      this.pending = { id: task.id, resolve, timer };
      const message: ParentMessage = { type: 'task', task };
      this.child.send(message);
    });
  }

  kill(): void {
    this.dead = true;
    this.child.kill('SIGKILL');
  }

  private settle(id: string, outcome: TaskOutcome): void {
    const pending = this.pending;
    if (!pending || pending.id !== id) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(outcome);
  }

  private lastStderrLine(): string | undefined {
    return this.stderr.trim().split('\n').pop()?.trim() || undefined;
  }
}

export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Every task gets exactly one outcome, whatever the modules do. */
export async function runPool(tasks: readonly VerifyTask[], options: PoolOptions): Promise<Map<string, TaskOutcome>> {
  const outcomes = new Map<string, TaskOutcome>();
  const queue = [...tasks];
  const size = Math.max(1, Math.min(options.concurrency ?? Math.min(2, availableParallelism()), queue.length));
  const worker = async (): Promise<void> => {
    let child: ChildWorker | undefined;
    let startFailures = 0;
    try {
      for (let task = queue.shift(); task; ) {
        if (!child?.alive) {
          child = new ChildWorker(options);
          try {
            await child.ready;
            startFailures = 0;
          } catch (error) {
            child = undefined;
            // Twice in a row: the process cannot start at all; no module is to blame.
            if (++startFailures < 2) continue;
            const message = error instanceof Error ? error.message : String(error);
            for (let t: VerifyTask | undefined = task; t; t = queue.shift())
              outcomes.set(t.id, { ok: false, why: 'start', message });
            return;
          }
        }
        outcomes.set(task.id, await child.run(task));
        task = queue.shift();
      }
    } finally {
      child?.kill();
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return outcomes;
}
