const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})/;
/** One or more blank lines, then a line that starts with text (an indented line may continue the block). */
const BLANK_THEN_TEXT = /\n(?:[ \t\r]*\n)+(?=\S)/g;
/** How far before `from` a search starts again, so a blank line split across two updates is found. */
const OVERLAP = 64;

/** What decides where an open block ends, read once from its first line. */
export interface BlockStart {
  /** Offset of the block's first character. */
  start: number;
  /** For a fenced code block, the pattern of its closing fence line. */
  closer: RegExp | undefined;
}

/** Reads the first line of the block that starts at `start` (once per block: the line may be long). */
export function readBlockStart(text: string, start: number): BlockStart {
  const firstLine = text.slice(start, findLineEnd(text, start));
  const fence = FENCE_OPENER.exec(firstLine)?.[1];
  const marker = fence?.startsWith('`') ? '`' : '~';
  return {
    start,
    closer: fence ? new RegExp(`\\n {0,3}${marker}{${fence.length},}[ \\t\\r]*\\n`, 'g') : undefined,
  };
}

/**
 * Where an open block ends, found without lexing it: after the closing fence of a fenced code
 * block; otherwise at the first line that starts with text after a blank line (so a loose list
 * ends item by item: each part still renders as a list, an ordered one with its start number).
 * Returns the offset of the next block's first line, or -1 while the block is still open. Only text from about `from` on is searched, so a
 * caller that passes how far it looked last time scans each character about once.
 */
export function findBlockEnd(text: string, block: BlockStart, from: number): number {
  const pattern = block.closer ?? BLANK_THEN_TEXT;
  pattern.lastIndex = Math.max(block.start, from - OVERLAP);
  const match = pattern.exec(text);
  return match ? match.index + match[0].length : -1;
}

function findLineEnd(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end === -1 ? text.length : end;
}
