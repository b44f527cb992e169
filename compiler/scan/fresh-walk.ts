/**
 * A fresh walk of the tree (first run, configuration change): the configured plugins resolved,
 * the installed packages' shipped manifests read, and the inventory listed from the disk.
 */
import { relative, resolve } from 'node:path';
import { readConfigText, type ResolvedOptions } from '../config/load.js';
import type { Diagnostic } from '../diagnostics.js';
import { configuredPaths, resolveConfiguredPlugins } from './configured.js';
import { TreeInventory } from './inventory.js';
import { DirListings } from './listings.js';
import { readShippedPackages, type ShippedCapabilities, type ShippedPackage } from './shipped.js';
import type { StampedModule } from './module-graph.js';
import { toPosix } from './walk.js';

export interface Shipped {
  readonly packages: ShippedCapabilities[];
  readonly diagnostics: Diagnostic[];
  /** The configured packages that declare a shipped manifest, as the last fresh walk found them. */
  readonly sources: readonly ShippedPackage[];
  /**
   * Their manifest modules and the modules those import, as read: real paths (a workspace package
   * is linked into `node_modules/` from its own folder, where its build writes); watch mode
   * follows them and reads the packages again when one changes.
   */
  readonly files: readonly StampedModule[];
}

export const NOTHING_SHIPPED: Shipped = { packages: [], diagnostics: [], sources: [], files: [] };

/**
 * The same packages read again (watch mode: one of their modules changed); a manifest whose
 * modules changed is evaluated afresh with them (scan/shipped.ts).
 */
export async function readShippedAgain(shipped: Shipped): Promise<Shipped> {
  return { ...(await readShippedPackages(shipped.sources)), sources: shipped.sources };
}

function configured(root: string, options: ResolvedOptions): ReturnType<typeof resolveConfiguredPlugins> {
  return resolveConfiguredPlugins(
    root,
    options.plugins,
    options.configFile ? readConfigText(root, options.configFile) : undefined,
  );
}

/**
 * `listingsFile`: where the directory listings of the last fresh walk are kept (scan/listings.ts;
 * undefined: none are kept, every directory is listed; `Compiler.listingsFile`). The walk writes them back when they changed.
 */
export async function freshWalk(
  root: string,
  options: ResolvedOptions,
  listingsFile?: string,
  /** List indices of files the last tree record left unstamped (cache/tree-check.ts `unstatOf`). */
  unstat?: readonly number[],
): Promise<{ inventory: TreeInventory; shipped: Shipped }> {
  const found = configured(root, options);
  const shipped = { ...(await readShippedPackages(found.packages)), sources: found.packages };
  const listings = listingsFile !== undefined ? DirListings.load(listingsFile) : undefined;
  const inventory = TreeInventory.walk(
    root,
    {
      pluginEntry: options.pluginEntry,
      allowed: [
        ...options.allowOutside.map((d) => resolve(root, d)),
        ...found.plugins.map((p) => resolve(root, p.dir)),
      ],
      outFile: options.outFile,
    },
    found.plugins,
    found.diagnostics,
    listings,
    unstat,
  );
  listings?.save();
  return { inventory, shipped };
}

/** Configured plugin directories (POSIX, relative to the root), for `outsideWalk`. */
export function configuredDirs(root: string, options: ResolvedOptions): readonly string[] {
  // With the configured paths that do not exist yet: a folder on the way to one is watched, so
  // its creation is seen (and, being a configured path, makes the next run walk afresh).
  const dirs = configured(root, options).plugins.map((p) => toPosix(relative(root, resolve(root, p.dir))));
  return [...new Set([...dirs, ...configuredPaths(root, options.plugins)])];
}
