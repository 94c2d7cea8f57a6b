/** What ends a `/long` answer that was cut short of its last block. */
export const LONG_CUT_MARKER = '…';

/**
 * Builds at most `length` characters (1 to 200 000) of varied Markdown (headings, lists, code,
 * tables, links, quotes), the same text for the same length, for the scripted model's `/long`
 * scenario. When the length falls inside a block, the text ends at the last whole word before it,
 * followed by {@link LONG_CUT_MARKER}, never mid-word.
 */
export function buildLongMarkdown(length: number): string {
  const target = Math.max(1, Math.min(length, 200_000));
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < target; index += 1) {
    const block = BLOCKS[index % BLOCKS.length]?.(index + 1) ?? '';
    parts.push(block);
    size += block.length + 2;
  }
  const text = parts.join('\n\n');
  if (text.length <= target) return text;
  const room = text.slice(0, target - LONG_CUT_MARKER.length + 1);
  const wordEnd = room.search(/\s\S*$/);
  return `${(wordEnd === -1 ? '' : room.slice(0, wordEnd)).trimEnd()}${LONG_CUT_MARKER}`;
}

const BLOCKS: ReadonlyArray<(n: number) => string> = [
  (n) =>
    `## Section ${n}\n\nThis section explains part ${n} of the topic in plain words, with **bold** and *italic* text and \`inline code\`.`,
  (n) =>
    `- First point of section ${n}\n- Second point, with a [link](https://example.com/docs/${n})\n  - a nested detail\n- Third point`,
  (n) => `\`\`\`ts\nexport function step${n}(input: number): number {\n  return input * ${n} + 1;\n}\n\`\`\``,
  (n) =>
    `| Item | Count | Note |\n| --- | ---: | --- |\n| alpha-${n} | ${n * 3} | steady |\n| beta-${n} | ${n * 7} | rising |`,
  (n) => `> Note ${n}: a quoted remark that spans a line or two,\n> so quotes render as well.`,
  (n) => `1. Prepare item ${n}\n2. Check it against the list\n3. Ship it`,
];

/**
 * The scripted model's `/code` answer: a TypeScript block and a shell block, whose languages the
 * widget highlights (docs/embedding.md, "Code highlighting").
 */
export const CODE_ANSWER = `A typed helper that totals a cart:

\`\`\`ts
/** Sums the prices of the items, in cents. */
export function total(items: ReadonlyArray<{ price: number }>): number {
  return items.reduce((sum, item) => sum + item.price, 0);
}

const label = \`Total: \${total([{ price: 250 }])} cents\`;
\`\`\`

Run it with:

\`\`\`sh
npx tsx total.ts # prints the label
\`\`\``;

/** The scripted model's Markdown answer to ordinary text, with the scenarios it suggests trying. */
export function buildDefaultAnswer(text: string, suggestions: readonly string[]): string {
  const quoted = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return [
    '### Scripted answer',
    '',
    `You wrote: *${quoted.replace(/[*_`[\]]/g, '')}*`,
    '',
    'I am the offline scripted model, so this answer is canned. Try one of these:',
    '',
    ...suggestions.map((suggestion) => `- ${suggestion}`),
  ].join('\n');
}
