import type { ProposalDiffLine } from '../../core/protocol.ts';

/** Past this many line pairs the diff is not searched: every old line is removed and every new one added. */
const MAX_COMPARED_LINE_PAIRS = 250_000;

/**
 * Compares two texts line by line and returns the lines of `after` and `before` in reading order,
 * each marked `added`, `removed` or `unchanged` (a longest common subsequence of lines, removals
 * before additions at each change). Texts too long to compare within `MAX_COMPARED_LINE_PAIRS`
 * give all of `before` removed, then all of `after` added.
 */
export function diffLines(before: string, after: string): ProposalDiffLine[] {
  const old = before === '' ? [] : before.split('\n');
  const next = after === '' ? [] : after.split('\n');
  if (old.length * next.length > MAX_COMPARED_LINE_PAIRS) {
    return [...old.map((text) => line('removed', text)), ...next.map((text) => line('added', text))];
  }
  // commonAfter(i, j): the length of the longest common subsequence of old[i..] and next[j..].
  const width = next.length + 1;
  const common = new Uint32Array((old.length + 1) * width);
  const commonAfter = (i: number, j: number): number => common[i * width + j] ?? 0;
  for (let i = old.length - 1; i >= 0; i -= 1) {
    for (let j = next.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        old[i] === next[j] ? commonAfter(i + 1, j + 1) + 1 : Math.max(commonAfter(i + 1, j), commonAfter(i, j + 1));
    }
  }
  const lines: ProposalDiffLine[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const oldLine = old[i];
    const nextLine = next[j];
    if (oldLine === undefined && nextLine === undefined) break;
    if (oldLine !== undefined && oldLine === nextLine) {
      lines.push(line('unchanged', oldLine));
      i += 1;
      j += 1;
    } else if (oldLine !== undefined && (nextLine === undefined || commonAfter(i + 1, j) >= commonAfter(i, j + 1))) {
      lines.push(line('removed', oldLine));
      i += 1;
    } else if (nextLine !== undefined) {
      lines.push(line('added', nextLine));
      j += 1;
    }
  }
  return lines;
}

function line(change: ProposalDiffLine['change'], text: string): ProposalDiffLine {
  return { change, text };
}
