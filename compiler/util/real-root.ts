import { realpathSync, statSync } from 'node:fs';

/** The root with symlinks resolved, so every path compared against it has one spelling; as given when it does not exist. */
export function realRoot(root: string): string {
  try {
    statSync(root);
    return realpathSync(root);
  } catch {
    return root;
  }
}
