/**
 * Whether a capability's entry file is TypeScript (`index.ts`, `index.mts`): its module brings
 * its own types. One home for the rule: assembly records it on a tool (`typed`: its input type
 * in `ToolInputs`), and emit writes a JavaScript module's loader so tsc need not type it
 * (emit/loader-call.ts).
 */
export function isTypedSource(source: string): boolean {
  return /\.m?ts$/.test(source);
}
