import { createCodeHighlighter, HIGHLIGHT_LANGUAGES, HIGHLIGHT_MAX_LENGTH } from '../src/highlight/highlight-code.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatTable } from './support/format-table.ts';

// `npx tsx bench/highlight-hostile.ts`: times the code highlighter (src/highlight/highlight-code.ts,
// what agent-chat.highlight.js runs) on code of the longest length it highlights, in every
// registered language: one real TypeScript sample, and runs of each of 64 short pieces (an
// identifier character, quotes, comment and string openers, brackets, sigils…) with each of four
// separators. Each call gets a fresh highlighter, so its time budget never refuses one. The
// slowest calls are listed; the last line is the figure.

const PIECES = [
  'a',
  '$',
  '_',
  '1',
  '0x',
  '0xa',
  '"',
  "'",
  '`',
  '/',
  '/*',
  '/**',
  '* @',
  '<',
  '<a ',
  '<!--',
  '${',
  '\\',
];
PIECES.push('#', '-', '--', '(', '[', '{', '{{', 'a.', 'a::', '@', '@"', '$"', '```', '*', '|', ':', '- ', 'a: ');
PIECES.push('"a":', 'r#"', "r'", "b'", 'u8"', 'R"(', '"""', "'''", '<<', '<<EOF\n', '&', '%', 'a<', 'a<b', '#[');
PIECES.push('#include <', '!', '=', '=>', '\t', 'class ', 'def ', 'fn ', '@@ ', '+', '>', '~', ' a', '\na');
const SEPARATORS = ['', ' ', '\n', 'a'];
const SAMPLE = `export function add(a: number, b: number): number {\n  // adds\n  const s = \`\${a} + \${b}\`;\n  return a + b;\n}\n`;

const sized = (unit: string): string =>
  unit.repeat(Math.ceil(HIGHLIGHT_MAX_LENGTH / unit.length)).slice(0, HIGHLIGHT_MAX_LENGTH);
const time = (code: string, language: string): number => {
  const highlight = createCodeHighlighter();
  const started = performance.now();
  highlight(code, language);
  return performance.now() - started;
};

console.log(describeMachine());
// Warm up each grammar once.
for (const language of HIGHLIGHT_LANGUAGES) time(SAMPLE, language);
const real = time(sized(SAMPLE), 'typescript');
const results: Array<{ language: string; input: string; ms: number }> = [];
for (const language of HIGHLIGHT_LANGUAGES) {
  for (const piece of PIECES) {
    for (const separator of SEPARATORS) {
      results.push({
        language,
        input: JSON.stringify(piece + separator),
        ms: time(sized(piece + separator), language),
      });
    }
  }
}
results.sort((a, b) => b.ms - a.ms);
console.log(
  formatTable(
    ['language', 'repeated', 'time'],
    results.slice(0, 8).map((result) => [result.language, result.input, formatMs(result.ms)]),
  ),
);
console.log(
  `${HIGHLIGHT_MAX_LENGTH} characters: real TypeScript ${formatMs(real)}; worst of ${results.length} hostile inputs ${formatMs(results[0]?.ms ?? 0)}`,
);
