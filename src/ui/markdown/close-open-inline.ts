/**
 * Returns the tail text of a message that is still streaming, with a dangling `**`, `~~` or code
 * span closed virtually (and an opener with nothing after it dropped), so the mid-stream render
 * shows formatting instead of raw delimiters. Only the last paragraph is scanned; text ending in a
 * newline or inside a fence is the caller's business (it is returned unchanged when nothing is open).
 */
export function closeOpenInline(text: string): string {
  if (text.endsWith('\n')) return text;
  const start = text.lastIndexOf('\n\n') + 1;
  const openers: Array<{ delimiter: string; index: number }> = [];
  let openCode: { delimiter: string; index: number } | undefined;
  let index = start;
  while (index < text.length) {
    const character = text[index];
    if (character === '\\') {
      index += 2;
      continue;
    }
    if (character === '`') {
      const run = runLength(text, index);
      const delimiter = '`'.repeat(run);
      const close = findRun(text, delimiter, index + run);
      if (close < 0) {
        openCode = { delimiter, index };
        break;
      }
      index = close + run;
      continue;
    }
    if (character === '*' || character === '~') {
      const run = runLength(text, index);
      if (run >= 2) toggle(openers, { delimiter: character.repeat(2), index });
      index += run;
      continue;
    }
    index += 1;
  }
  if (!openCode && openers.length === 0) return text;
  let body = text.trimEnd();
  if (openCode) {
    if (body.length <= openCode.index + openCode.delimiter.length) body = body.slice(0, openCode.index).trimEnd();
    else body += openCode.delimiter;
  }
  for (let position = openers.length - 1; position >= 0; position -= 1) {
    const opener = openers[position];
    if (!opener) continue;
    if (body.length <= opener.index + opener.delimiter.length) body = body.slice(0, opener.index).trimEnd();
    else body = body.trimEnd() + opener.delimiter;
  }
  return body;
}

function toggle(
  openers: Array<{ delimiter: string; index: number }>,
  opener: { delimiter: string; index: number },
): void {
  if (openers.at(-1)?.delimiter === opener.delimiter) openers.pop();
  else openers.push(opener);
}

function runLength(text: string, index: number): number {
  let end = index;
  while (text[end] === text[index]) end += 1;
  return end - index;
}

/** Index of the next run of exactly `delimiter` (a backtick run) at or after `from`, or -1. */
function findRun(text: string, delimiter: string, from: number): number {
  let index = text.indexOf(delimiter, from);
  while (index >= 0) {
    const run = runLength(text, index);
    if (run === delimiter.length) return index;
    index = text.indexOf(delimiter, index + run);
  }
  return -1;
}
