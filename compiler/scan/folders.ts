/**
 * The folder names the walk decides by (scan/walk.ts), in one home: the convention folders a
 * plugin's capabilities live in, and which other folders of a child plugin may group plugins.
 */
import { isIgnoredEntry } from './ignore.js';

/**
 * The folders the scan walks in each plugin. `agent` is zhin.js's earlier plugin-level folder:
 * never compiled, walked so every construct in it is reported (scan/earlier-layout.ts).
 */
export const CONVENTION_FOLDERS = ['tools', 'skills', 'agents', 'hooks', 'prompt-sections', 'agent'] as const;

/**
 * A child plugin's own folders of code, docs and assets: never looked into (`src/plugin.ts` is
 * the plugin's code), which also spares a large tree a listing per plugin.
 */
const PLUGIN_OWN_FOLDERS: ReadonlySet<string> = new Set([
  'src',
  'lib',
  'dist',
  'build',
  'test',
  'tests',
  'docs',
  'assets',
  'public',
  'scripts',
  'coverage',
  // Tests, examples and types of the plugin's own code (Jest's `__tests__/plugin.ts` tests `plugin.ts`).
  '__tests__',
  '__mocks__',
  'spec',
  'e2e',
  'fixtures',
  'examples',
  'example',
  'types',
  'bench',
]);

/**
 * Whether a folder beside a child plugin's conventions may group plugins (zhin.js's
 * `plugins/utils/lottery/`, where `utils` only holds plugins): the walk lists such a folder for a
 * plugin entry and nothing else, and the layout reports an entry found there (ZG1065), since its
 * capabilities would otherwise be left out with `check` passing. One rule for the walk, the
 * watch inventory (scan/inventory.ts) and the watcher's relevance (scan/watched.ts).
 */
export function isGroupingCandidate(name: string): boolean {
  return (
    !(CONVENTION_FOLDERS as readonly string[]).includes(name) &&
    name !== 'plugins' &&
    !PLUGIN_OWN_FOLDERS.has(name) &&
    !isIgnoredEntry(name)
  );
}
