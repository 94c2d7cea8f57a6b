import type { Token } from 'marked';

/**
 * How many leading tokens are final, and where the text after them starts: everything before the
 * last non-blank token that starts on a complete line, as long as the raw texts line up with the
 * source and the token just before the cut is not a reference definition (its title may follow).
 */
export function findFinalBoundary(tokens: Token[], source: string): { count: number; offset: number } {
  const lastNewline = source.lastIndexOf('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const token of tokens) {
    if (!source.startsWith(token.raw, offset)) break;
    starts.push(offset);
    offset += token.raw.length;
  }
  for (let index = starts.length - 1; index > 0; index -= 1) {
    const start = starts[index] ?? 0;
    const token = tokens[index];
    if (!token || token.type === 'space' || start > lastNewline) continue;
    if (tokens[index - 1]?.type === 'def') continue;
    return { count: index, offset: start };
  }
  return { count: 0, offset: 0 };
}

/** Returns `text` with CRLF and CR line endings folded to LF, as the lexer sees it. */
export function normalizeLineEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Length in the original tail of its first `normalizedLength` characters after CRLF/CR folding. */
export function originalLength(tail: string, normalizedLength: number): number {
  if (!tail.includes('\r')) return normalizedLength;
  let original = 0;
  for (let count = 0; count < normalizedLength; count += 1) {
    original += tail[original] === '\r' && tail[original + 1] === '\n' ? 2 : 1;
  }
  return original;
}
