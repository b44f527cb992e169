/**
 * A short line diff for `check`: greedy resynchronisation within a window (the manifest changes
 * in few, local places), showing only changed lines with their line numbers, at most `limit`.
 */
export function shortDiff(before: string, after: string, limit = 20, window = 60): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    let best: [number, number] | undefined;
    for (let d = 1; d <= window * 2 && !best; d++) {
      for (let di = 0; di <= d; di++) {
        const dj = d - di;
        if (i + di < a.length && j + dj < b.length && a[i + di] === b[j + dj]) {
          best = [di, dj];
          break;
        }
      }
    }
    const [di, dj] = best ?? [a.length - i, b.length - j];
    out.push(`@@ line ${j + 1} @@`);
    // Long lines (a tool's JSON line) are shown around the first difference of the pair.
    const focus = di > 0 && dj > 0 ? firstDifference(a[i]!, b[j]!) : 0;
    for (let k = 0; k < di; k++) out.push(`- ${clip(a[i + k]!, focus)}`);
    for (let k = 0; k < dj; k++) out.push(`+ ${clip(b[j + k]!, focus)}`);
    i += di;
    j += dj;
  }
  const shown = out.slice(0, limit);
  if (out.length > shown.length) shown.push(`… ${out.length - shown.length} more lines`);
  return shown.join('\n');
}

function firstDifference(x: string, y: string): number {
  let k = 0;
  while (k < x.length && k < y.length && x[k] === y[k]) k++;
  return k;
}

/** At most ~150 characters of a line, starting a little before `focus`. */
function clip(line: string, focus: number): string {
  if (line.length <= 150) return line;
  const start = Math.max(0, Math.min(focus - 40, line.length - 150));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + 150)}${start + 150 < line.length ? '…' : ''}`;
}
