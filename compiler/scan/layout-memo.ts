/**
 * The layout and units of one inventory revision, kept while the tree's shape stays as it was:
 * a change event alone (watch mode) reuses them.
 */
import type { TreeInventory } from './inventory.js';
import { buildLayout, collectUnits } from './layout.js';

export interface DerivedLayout {
  readonly layout: ReturnType<typeof buildLayout>;
  readonly units: ReturnType<typeof collectUnits>;
}

export class LayoutMemo {
  private last?: DerivedLayout & { readonly inventory: TreeInventory; readonly revision: number };

  of(inventory: TreeInventory, pluginEntry: readonly string[]): DerivedLayout {
    if (this.last?.inventory !== inventory || this.last.revision !== inventory.revision) {
      const layout = buildLayout(inventory.list, pluginEntry, inventory.extra);
      this.last = { inventory, revision: inventory.revision, layout, units: collectUnits(layout) };
    }
    return this.last;
  }
}
