/**
 * Builds about `length` characters of varied Markdown (headings, lists, code, tables, links,
 * quotes), the same text for the same length, for the scripted model's `/long` scenario.
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
  return parts.join('\n\n').slice(0, target).trimEnd();
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
