/**
 * What watch mode follows besides the walk (compiler/context.ts): the modules of the shipped
 * package manifests (scan/shipped-follow.ts), the modules the config module imports
 * (config/load.ts), the targets of the tree's symbolic links (scan/walk.ts `links`) and an output
 * in a folder the walk never enters. Each is handed to the watcher once per read (`take`), and
 * events are asked against them: the relevance rules (`has`), and a change at a link's target,
 * which is a change of the link (`throughLinks`). One per compiler.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StampedFile } from '../cache/stamped-since.js';
import type { Shipped } from '../scan/fresh-walk.js';
import type { TreeInventory } from '../scan/inventory.js';
import { FollowedModules, statStamped } from '../scan/module-graph.js';
import { ShippedFollow } from '../scan/shipped-follow.js';
import { type DependencyStamp, dependencyStamps } from './dependency-dirs.js';
import type { EventRelevance } from './relevance.js';

export class WatchFollow {
  /** Installed plugin packages whose shipped manifest is read instead of their sources (scan/shipped.ts). */
  readonly packages: ShippedFollow;
  /** The modules the config module imports: an edit of one reloads the configuration. */
  readonly configModules: FollowedModules;
  /** The targets of the tree's links, as the last fresh walk found them. */
  readonly linkTargets: FollowedModules;
  /** The output file whose folder the watcher was last given to follow. */
  private outputFollowed: string | undefined;

  constructor(private readonly root: string) {
    this.packages = new ShippedFollow(root);
    this.configModules = new FollowedModules(root);
    this.linkTargets = new FollowedModules(root);
  }

  /** A fresh walk's inventory and packages: what is followed for them from now on. */
  walked(inventory: TreeInventory, shipped: Shipped): void {
    this.packages.use(shipped);
    this.linkTargets.use(inventory.links.map(([, target]) => statStamped(target)));
  }

  /** Whether a path (POSIX, relative) is one of what is followed (the relevance rules' `dependsOn`). */
  has(rel: string): boolean {
    return this.packages.modules.has(rel) || this.linkTargets.has(rel) || this.configModules.has(rel);
  }

  /**
   * Adds to `dirty` the tree's paths a change at `rel` is a change of, through a link; true when
   * it decides what the walk follows (ZG1005), which a fresh walk redoes: a broken link's target
   * that came, a linked folder that came or went, a linked file that went, a link on the way
   * retargeted. Edits below a linked folder are patched.
   */
  throughLinks(inventory: TreeInventory | undefined, rel: string, dirty: Set<string>): boolean {
    let relinked = false;
    for (const link of inventory?.linksTo(rel) ?? []) {
      dirty.add(link.path);
      if (link.kind === 'broken' || link.kind === 'via' || (link.kind === 'dir' && link.atTarget)) relinked = true;
      else if (link.kind === 'file' && !existsSync(join(this.root, link.path))) relinked = true;
    }
    return relinked;
  }

  /**
   * What the watcher must follow, stamped: the units' files outside the walk (`stamped`) and what
   * this follows, those taken since the last call.
   */
  take(
    stamped: readonly StampedFile[],
    relevance: Pick<EventRelevance, 'ignores' | 'outsideWalk'>,
    outFile: string | undefined,
  ): DependencyStamp[] {
    const deps = dependencyStamps(
      this.root,
      [...stamped, ...this.packages.modules.take(), ...this.configModules.take()],
      relevance,
    );
    // A link's target whatever its name: the walk follows a link into a dot folder or
    // `node_modules/` (those it enters itself are not followed: DependencyDirs leaves them out).
    for (const { path, stamp } of this.linkTargets.take()) deps.push({ path: join(this.root, path), stamp });
    // The output in a folder the walk never enters (`out: 'src/…'`): its folder is watched, so
    // its removal is seen (watch/tree.ts `isOutput`); once per configuration.
    if (outFile !== undefined && outFile !== this.outputFollowed && relevance.outsideWalk(outFile, false)) {
      this.outputFollowed = outFile;
      deps.push(statStamped(outFile));
    }
    return deps;
  }
}
