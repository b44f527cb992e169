/**
 * A root that is a capability folder of an enclosing tree (`cd tools && zhin-gen generate`): the
 * default root is the working directory, and such a run wrote zhin-capabilities.gen.ts into
 * `tools/`, where the real tree's next `check` failed with a flat-tool error that `migrate`
 * could not fix. Refused as a usage error naming the tree's root instead; so is, as the default
 * root, any other folder inside a generated or configured tree that is no project and holds no
 * capability folders of its own (`cd src`, `cd plugins`, `cd skills/x/tools`): `new` wrote a
 * tool there that the tree never compiles.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CONFIG_FILES, DEFAULT_OPTIONS } from '../config/load.js';
import { CONVENTION_FOLDERS } from '../scan/walk.js';

/** Files that make a directory a project (a tree's root, or a package of its own). */
const PROJECT_FILES = ['AGENTS.md', 'package.json', ...CONFIG_FILES];

const isProject = (dir: string): boolean => PROJECT_FILES.some((file) => existsSync(join(dir, file)));

/** Folders that make a directory a tree of capabilities (its own, or a child plugin's). */
const TREE_FOLDERS: readonly string[] = [...CONVENTION_FOLDERS, 'plugins'];

const holdsCapabilities = (dir: string): boolean => TREE_FOLDERS.some((folder) => existsSync(join(dir, folder)));

/**
 * The enclosing tree's root and the convention folder `root` lies in, when `root` is inside
 * one (and is no project of its own); undefined otherwise.
 */
export function enclosingTree(
  root: string,
  /** The root is the working directory (no --root given). */
  implicit = false,
): { readonly tree: string; readonly folder: string } | undefined {
  if (isProject(root)) return undefined;
  // The root is the convention folder (`cd tools`) or one capability in it (`cd tools/echo`):
  // deeper, a folder named `tools` is as likely a monorepo's own (`tools/bots/support`).
  for (const dir of [root, dirname(root)]) {
    const folder = basename(dir);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    if ((CONVENTION_FOLDERS as readonly string[]).includes(folder) && isProject(parent))
      return { tree: parent, folder };
    if (dir !== root && isProject(dir)) break;
  }
  // Only for the default root (the working directory): a --root names its folder on purpose.
  if (!implicit || holdsCapabilities(root)) return undefined;
  // Up to the nearest project: a zhin-gen tree there (one generated or configured, and holding
  // capability folders) is the root meant. A monorepo's own tools/ or a coding agent's AGENTS.md
  // at the top make no tree: a bot below them is a root like any other.
  for (let dir = dirname(root); dirname(dir) !== dir; dir = dirname(dir)) {
    if (!isProject(dir)) continue;
    const zhinTree =
      holdsCapabilities(dir) && [DEFAULT_OPTIONS.out, ...CONFIG_FILES].some((file) => existsSync(join(dir, file)));
    return zhinTree ? { tree: dir, folder: relative(dir, root).split(sep)[0]! } : undefined;
  }
  return undefined;
}
