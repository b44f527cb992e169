/**
 * The layout and units of one inventory revision, kept while the tree's shape stays as it was:
 * a change event alone (watch mode) reuses them. A fresh process takes them from the layout
 * store (scan/layout-store.ts) when its walk listed what the last one did.
 */
import type { TreeInventory } from './inventory.js';
import { buildLayout, collectUnits } from './layout.js';
import { layoutKey, LayoutStore } from './layout-store.js';

export interface DerivedLayout {
  readonly layout: ReturnType<typeof buildLayout>;
  readonly units: ReturnType<typeof collectUnits>;
}

export class LayoutMemo {
  private last?: DerivedLayout & { readonly inventory: TreeInventory; readonly revision: number };
  private readonly store: LayoutStore | undefined;

  /** `file`: where the layout store lives (beside the unit cache); undefined keeps none. */
  constructor(file?: string) {
    this.store = file === undefined ? undefined : new LayoutStore(file);
  }

  of(inventory: TreeInventory, pluginEntry: readonly string[]): DerivedLayout {
    if (this.last?.inventory !== inventory || this.last.revision !== inventory.revision) {
      // The store serves the first layout of an inventory (a fresh walk): watch mode's patched
      // revisions are derived in memory, and their store write waits for the next fresh walk.
      const fresh = this.last?.inventory !== inventory;
      const key = this.store && fresh ? layoutKey(inventory.digest, pluginEntry, inventory.extra) : undefined;
      let derived = key === undefined ? undefined : this.store!.load(key, inventory.list);
      if (!derived) {
        const layout = buildLayout(inventory.list, pluginEntry, inventory.extra);
        derived = { layout, units: collectUnits(layout) };
        if (key !== undefined) this.store!.save(key, derived, inventory.list);
      }
      this.last = { inventory, revision: inventory.revision, ...derived };
    }
    return this.last;
  }
}
