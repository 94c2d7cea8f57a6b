/**
 * Remembers where the rows shown so far began, so rows put before them later (a page of older
 * messages) render as a chunk of their own and the rows already shown keep their DOM: Lit matches
 * an array's items by index, so rows prepended to one array would rebuild every row after them.
 */
export class RowChunks {
  /** The key of each chunk's first row, oldest chunk first. */
  #starts: string[] = [];

  /**
   * Splits `rows` (in reading order) into chunks, oldest first: rows before the oldest known chunk
   * make a new chunk; when a known chunk's first row is gone (another conversation), one chunk.
   */
  split<Row extends { key: string }>(rows: readonly Row[]): Row[][] {
    const first = rows[0]?.key;
    const starts = first === undefined || this.#starts[0] === first ? this.#starts : [first, ...this.#starts];
    const chunks: Row[][] = [];
    let next = 0;
    for (const row of rows) {
      if (row.key === starts[next]) {
        chunks.push([]);
        next += 1;
      }
      chunks[chunks.length - 1]?.push(row);
    }
    const isKnown = next === starts.length;
    this.#starts = isKnown ? starts : rows.slice(0, 1).map((row) => row.key);
    return isKnown ? chunks : [rows.slice()];
  }
}
