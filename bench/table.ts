/**
 * A Markdown table as lines, numbers right-aligned: the benches print their results as tables
 * that paste into docs/bench.md unchanged.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---:')), ...rows.map(line)];
}
