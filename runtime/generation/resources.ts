/**
 * Resources provided in `setup()` (`context.resources.provide(token, value, dispose?)`). They
 * belong to one generation: a tool resolves `use(token)` from its own owner's scope, then the
 * owner's ancestors up to the root (children may rely on what their parents provide; siblings
 * never see each other). Disposers run once, in reverse order, when the generation retires and
 * its last lease ends, or immediately when the candidate is rejected.
 */
import type { ResourceToken } from '../contract/define.js';
import { describeError, ownerChain } from './capability.js';

interface Disposal {
  readonly label: string;
  readonly dispose: () => void | Promise<void>;
}

export class ResourceRegistry {
  readonly #byOwner = new Map<string, Map<symbol, unknown>>();
  readonly #disposals: Disposal[] = [];
  #sealed = false;
  #disposed = false;

  provide<T>(owner: string, token: ResourceToken<T>, value: T, dispose?: () => void | Promise<void>): void {
    if (this.#sealed) throw new Error(`resource "${token.description}" provided after the generation was prepared`);
    if (typeof token !== 'object' || token === null || typeof token.key !== 'symbol') {
      throw new TypeError('resources.provide() expects a token made with createToken()');
    }
    const scope = this.#byOwner.get(owner) ?? new Map<symbol, unknown>();
    if (scope.has(token.key)) {
      throw new Error(`resource "${token.description}" is provided twice by owner "${owner}"`);
    }
    scope.set(token.key, value);
    this.#byOwner.set(owner, scope);
    if (dispose !== undefined) {
      if (typeof dispose !== 'function') throw new TypeError('a resource disposer must be a function');
      this.#disposals.push({ label: `${owner || '(root)'}:${token.description}`, dispose });
    }
  }

  use<T>(owner: string, token: ResourceToken<T>): T {
    if (typeof token !== 'object' || token === null || typeof token.key !== 'symbol') {
      throw new TypeError('use() expects a token made with createToken()');
    }
    for (const candidate of ownerChain(owner)) {
      const scope = this.#byOwner.get(candidate);
      if (scope?.has(token.key)) return scope.get(token.key) as T;
    }
    throw new Error(`resource "${token.description}" is not provided for owner "${owner}"`);
  }

  seal(): void {
    this.#sealed = true;
  }

  /** Runs every disposer once, newest first; failures are reported, never thrown. */
  async dispose(onError: (error: Error) => void): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const disposal of [...this.#disposals].reverse()) {
      try {
        await disposal.dispose();
      } catch (error) {
        onError(new Error(`disposing resource ${disposal.label} failed: ${describeError(error)}`));
      }
    }
  }
}
