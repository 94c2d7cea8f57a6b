/** Formats rows as an aligned text table: text columns (the first, and any named `note`) left-aligned, numbers right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const isText = (column: number): boolean => column === 0 || header[column] === 'note';
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (isText(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Bytes as kilobytes (1 KB = 1000 bytes, as the build's size table) with two decimals. */
export function formatKb(bytes: number): string {
  return `${(bytes / 1000).toFixed(2)} KB`;
}

/** Milliseconds with a precision that suits their size (three decimals under 1 ms). */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** A ratio as `12.3×`. */
export function formatRatio(ratio: number): string {
  return `${ratio >= 100 ? Math.round(ratio).toLocaleString('en-US') : ratio.toFixed(ratio >= 10 ? 1 : 2)}×`;
}
