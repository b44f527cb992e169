/**
 * `zhin-gen/runtime`: the runtime package, `@zhin-gen/runtime`, re-exported so trees and
 * manifests written before the split keep working. A bot deploys `@zhin-gen/runtime` alone
 * (docs/packages.md); import from it directly. One module instance either way: this file holds
 * nothing of its own.
 */
export * from '@zhin-gen/runtime';
