/**
 * Unified diffs for the plan (`--- a/old`, `+++ b/new`, hunks with three lines of context), as
 * `git diff` and `patch` read them. Lines are compared after the common head and tail are cut,
 * with an LCS table on what is left (files migrate edits are small; past a size limit the middle
 * is shown as replaced rather than spending quadratic time on it).
 */
const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === '') return { lines: [], finalNewline: true };
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, finalNewline };
}

function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_CELLS)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * (m + 1) + j] =
        a[i] === b[j]
          ? table[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!)) {
      ops.push({ kind: '-', line: a[i]! });
      i++;
    } else {
      ops.push({ kind: '+', line: b[j]! });
      j++;
    }
  }
  return ops;
}

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middleOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** The diff of `before` → `after`; '' when equal. `undefined` stands for a file that does not exist. */
export function unifiedDiff(
  fromName: string,
  before: string | undefined,
  toName: string,
  after: string | undefined,
): string {
  if (before === after) return '';
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  const ops = lineOps(a.lines, b.lines);
  const out = [
    `--- ${before === undefined ? '/dev/null' : `a/${fromName}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${toName}`}`,
  ];
  // Old/new line numbers of each op, then hunks: changes with CONTEXT lines around, merged when close.
  let oldLine = 1;
  let newLine = 1;
  const numbered = ops.map((op) => {
    const entry = { ...op, oldLine, newLine };
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
    return entry;
  });
  const changed = numbered.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index !== -1);
  let k = 0;
  while (k < changed.length) {
    let start = Math.max(0, changed[k]! - CONTEXT);
    let end = Math.min(numbered.length, changed[k]! + CONTEXT + 1);
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end) {
      k++;
      end = Math.min(numbered.length, changed[k]! + CONTEXT + 1);
    }
    k++;
    const hunk = numbered.slice(start, end);
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount === 0 ? hunk[0]!.oldLine - 1 : hunk.find((op) => op.kind !== '+')!.oldLine;
    const newStart = newCount === 0 ? hunk[0]!.newLine - 1 : hunk.find((op) => op.kind !== '-')!.newLine;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) {
      out.push(`${op.kind}${op.line}`);
      const isLastOld = op.kind !== '+' && op.oldLine === a.lines.length;
      const isLastNew = op.kind !== '-' && op.newLine === b.lines.length;
      if (
        (isLastOld && !a.finalNewline && op.kind === '-') ||
        (isLastNew && !b.finalNewline && op.kind !== '-') ||
        (isLastOld && !a.finalNewline && op.kind === ' ' && b.finalNewline)
      )
        out.push('\\ No newline at end of file');
    }
    start = end;
  }
  return `${out.join('\n')}\n`;
}
