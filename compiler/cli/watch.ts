/** `zhin-gen watch`: regenerate on change (and on config change), coalescing bursts. */
import type { Compiler } from '../context.js';
import { watchTree } from '../watcher.js';
import { formatPretty, type Palette } from './format.js';
import type { Io } from './main.js';

export async function runWatch(compiler: Compiler, io: Io, colors: Palette): Promise<number> {
  const report = async (): Promise<void> => {
    const result = await compiler.run({ write: true });
    if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors));
    const { summary } = await import('./main.js');
    io.out(summary(result) + (result.errors > 0 ? ' — last good manifest kept' : ''));
  };
  await report();
  const outFile = compiler.resolved?.outFile;
  const watcher = watchTree(
    compiler.root,
    (events) => {
      compiler.notify(events);
      void report();
    },
    { ignore: (abs) => abs === outFile || abs.endsWith('.tmp') },
  );
  io.out('zhin-gen: watching for changes (Ctrl+C to stop)');
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      watcher.close();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
