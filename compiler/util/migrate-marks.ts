/**
 * The placeholders `zhin-gen migrate` writes where the earlier layout had nothing to convert (a
 * sub-agent's boundaries.md, an agent.json without a description): one home for the marks, so
 * the build finds every one migrate left. A placeholder is text the model would be sent
 * ("TODO: write …"), so a tree that still holds one must not pass `check` (ZG4018).
 */
export const STUB_MARK = '<!-- zhin-gen migrate: STUB. The earlier layout had no source for this file; replace it. -->';
export const TODO_MARK = 'TODO(zhin-gen migrate)';

/** 1-based line and column of the first migrate placeholder in `text`, if it holds one. */
export function migratePlaceholderAt(text: string): { readonly line: number; readonly column: number } | undefined {
  const stub = text.indexOf(STUB_MARK);
  const todo = text.indexOf(TODO_MARK);
  const at = stub === -1 ? todo : todo === -1 ? stub : Math.min(stub, todo);
  if (at === -1) return undefined;
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}
