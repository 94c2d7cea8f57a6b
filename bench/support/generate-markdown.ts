/** Options of {@link generateMarkdown}. */
export interface GenerateMarkdownOptions {
  /** Exact length of the result in characters. */
  length: number;
  /** Seed of the deterministic random source; the same seed gives the same text. */
  seed?: number;
}

const WORDS = (
  'agent stream token render parser block table list heading code link session cursor event ' +
  'widget server retry backoff sequence snapshot approval tool result reasoning message delta ' +
  'markdown sanitize frame budget latency layout paint memory scroll transcript user answer'
).split(' ');

/**
 * Generates varied assistant-style Markdown of an exact length: headings, paragraphs with inline
 * emphasis, code and links, bullet and ordered (nested) lists, fenced code, tables and quotes, in a
 * deterministic order. The text is cut at `length`, so it may end inside a block, as a stream does.
 */
export function generateMarkdown(options: GenerateMarkdownOptions): string {
  const random = createRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const sentence = (): string => {
    const text = words(between(6, 14));
    const inline = pick([
      () => `**${words(2)}**`,
      () => `*${words(2)}*`,
      () => `\`${pick(WORDS)}()\``,
      () => `[${words(2)}](https://example.com/${pick(WORDS)}/${between(1, 999)})`,
      () => words(2),
    ])();
    return `${text.charAt(0).toUpperCase()}${text.slice(1)} ${inline} ${words(between(2, 6))}.`;
  };
  const paragraph = (): string => Array.from({ length: between(2, 5) }, sentence).join(' ');
  const blocks: Array<() => string> = [
    () => `${'#'.repeat(between(1, 3))} ${words(between(2, 5))}`,
    paragraph,
    paragraph,
    () =>
      Array.from(
        { length: between(3, 6) },
        () => `- ${sentence()}${random() < 0.3 ? `\n  - ${words(between(3, 8))}` : ''}`,
      ).join('\n'),
    () => Array.from({ length: between(3, 6) }, (_, index) => `${index + 1}. ${sentence()}`).join('\n'),
    () => {
      const lines = Array.from(
        { length: between(5, 16) },
        () => `  const ${pick(WORDS)} = ${pick(WORDS)}(${between(0, 99)}); // ${words(3)}`,
      );
      return `\`\`\`${pick(['ts', 'js', 'sh', 'json'])}\nfunction ${pick(WORDS)}() {\n${lines.join('\n')}\n}\n\`\`\``;
    },
    () => {
      const columns = between(3, 4);
      const row = (): string =>
        `| ${Array.from({ length: columns }, () => (random() < 0.3 ? `\`${pick(WORDS)}\`` : words(between(1, 3)))).join(' | ')} |`;
      return [row(), `|${' --- |'.repeat(columns)}`, ...Array.from({ length: between(4, 8) }, row)].join('\n');
    },
    () => `> ${sentence()}\n> ${sentence()}`,
  ];
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < options.length; index += 1) {
    const block = (index % 3 === 0 ? blocks[index % blocks.length] : pick(blocks)) as () => string;
    const text = `${block()}\n\n`;
    parts.push(text);
    size += text.length;
  }
  return parts.join('').slice(0, options.length);
}

/** mulberry32: a tiny seeded generator, good enough to vary benchmark text reproducibly. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
