/**
 * Another `generate` racing the CLI under test, played by a preload (`node --import`): right
 * after the CLI's own rename onto a path ending in `suffix`, it renames `older` over that path,
 * once, as a concurrent process finishing its older write would. A preload, because the race is
 * between two syscalls of the CLI: `syncBuiltinESMExports` makes the CLI's `fs` imports see it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the preload (and the older text it renames in) into `work`; returns the preload's path. */
export function otherProcessPreload(work: string, suffix: string, older: string): string {
  const olderFile = join(work, 'older.txt');
  writeFileSync(olderFile, older);
  const preload = join(work, 'other-process.mjs');
  writeFileSync(
    preload,
    `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const rename = fs.renameSync;
let done = false;
fs.renameSync = (from, to) => {
  rename(from, to);
  if (done || !String(to).endsWith(${JSON.stringify(suffix)})) return;
  done = true;
  fs.writeFileSync(to + '.other', fs.readFileSync(${JSON.stringify(olderFile)}));
  rename(to + '.other', to);
};
syncBuiltinESMExports();
`,
  );
  return preload;
}
