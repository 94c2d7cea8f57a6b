/** One pathological input: a name that says what it stresses and its text. */
export interface HostileInput {
  family: string;
  name: string;
  text: string;
}

/** Repeats `unit` until the text is exactly `length` characters long. */
function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Builds text of exactly `length` characters from successive parts `part(0)`, `part(1)`, …. */
function buildTo(length: number, part: (index: number) => string): string {
  let text = '';
  for (let index = 0; text.length < length; index += 1) text += part(index);
  return text.slice(0, length);
}

/**
 * The hostile-Markdown families `bench/hostile-markdown.ts` streams, each input of exactly
 * `length` characters (the inputs an issue measured keep their own lengths: 9,999 alternating
 * emphasis delimiters, 20,000 nested quotes with and without spaces, and 5,000 nested list markers): emphasis runs and mixes, nesting of
 * quotes, lists and brackets, long tables, backtick runs, entity runs and combining marks.
 */
export function generateHostileInputs(length: number): HostileInput[] {
  return [
    { family: 'emphasis', name: '*a_ alternating, 9,999 chars', text: repeatTo('*a_', 9_999) },
    { family: 'emphasis', name: '*a_ alternating', text: repeatTo('*a_', length) },
    { family: 'emphasis', name: '* run', text: repeatTo('*', length) },
    { family: 'emphasis', name: '_ run', text: repeatTo('_', length) },
    { family: 'emphasis', name: '**a mix', text: repeatTo('**a', length) },
    {
      family: 'emphasis',
      name: '*_~ mix',
      text: buildTo(length, (index) => `${'*_~'.charAt((index * 7) % 3)}${'ab'.charAt(index % 2)}`),
    },
    { family: 'emphasis', name: '~~ and ** runs', text: repeatTo('~~a**b', length) },
    { family: 'nesting', name: '> 20,000 nested quotes', text: repeatTo('>', 20_000) },
    { family: 'nesting', name: '> > … x, 20,000 nested quotes', text: `${'> '.repeat(20_000)}x` },
    { family: 'nesting', name: '- - … x, 5,000 nested list markers', text: `${'- '.repeat(5_000)}x` },
    { family: 'nesting', name: '> quote ladder', text: buildTo(length, (index) => `${'>'.repeat(index % 64)} a\n`) },
    { family: 'nesting', name: '- nested list markers', text: repeatTo('- ', length) },
    {
      family: 'nesting',
      name: 'list indent ladder',
      text: buildTo(length, (index) => `${'  '.repeat(index % 64)}- a\n`),
    },
    { family: 'nesting', name: '[ run', text: repeatTo('[', length) },
    { family: 'nesting', name: '[a]( chain', text: repeatTo('[a](', length) },
    { family: 'nesting', name: '![ run', text: repeatTo('![', length) },
    { family: 'nesting', name: '( in a destination', text: `[a](${repeatTo('(', length - 4)}` },
    {
      family: 'table',
      name: 'long table',
      text: `| a | b | c |\n|---|---|---|\n${buildTo(length - 28, (index) => `| ${index} | *x* | \`y\` |\n`)}`,
    },
    {
      family: 'table',
      name: 'wide table row',
      text: `${repeatTo('| a ', length / 2)}\n${repeatTo('|---', length / 2 - 1)}`,
    },
    { family: 'backticks', name: '` run', text: repeatTo('`', length) },
    {
      family: 'backticks',
      name: 'growing backtick runs',
      text: buildTo(length, (index) => `${'`'.repeat(index % 32)}a`),
    },
    {
      family: 'backticks',
      name: 'unclosed fence',
      text: `\`\`\`\n${buildTo(length - 4, (index) => `line ${index}\n`)}`,
    },
    { family: 'entities', name: '&amp; run', text: repeatTo('&amp;', length) },
    { family: 'entities', name: '&#x41; run', text: repeatTo('&#x41;', length) },
    { family: 'entities', name: '& run', text: repeatTo('&', length) },
    { family: 'entities', name: 'references in a destination', text: `[a](${repeatTo('&ouml;', length - 5)})` },
    { family: 'combining', name: 'a + 200 combining marks', text: buildTo(length, () => `a${'\u0301'.repeat(200)} `) },
    { family: 'combining', name: 'one base + combining marks', text: `a${repeatTo('\u0301\u0316', length - 1)}` },
  ];
}
