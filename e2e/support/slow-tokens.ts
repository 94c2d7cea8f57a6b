/** The `/slow` scenario's words in order (`word1 … word11 slowly. word13 …`), from text or Markdown. */
export function readSlowTokens(text: string): string[] {
  return text.match(/word\d+|slowly\./g) ?? [];
}

/** The first `count` tokens `/slow` streams: every twelfth is `slowly.`, the rest `word<n>`. */
export function expectedSlowTokens(count: number): string[] {
  return Array.from({ length: count }, (_, index) => (index % 12 === 11 ? 'slowly.' : `word${index + 1}`));
}
