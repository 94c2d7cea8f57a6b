import { describe, expect, test } from 'vitest';
import { findBlockEnd, readBlockStart } from './find-block-end.ts';

describe('findBlockEnd', () => {
  test.each<[string, string, number]>([
    ['a paragraph is open until a line with text follows a blank line', 'some *text\nmore\n\n', -1],
    ['a paragraph ends at the first line with text after a blank line', 'some *text\n\n\nnext', 13],
    ['an indented line after a blank line may continue the block', 'para\n\n    code', -1],
    ['a loose list ends item by item', '- a\n\n- b', 5],
    ['a blank line inside a fence does not end it', '```js\na\n\nb\n', -1],
    ['a fence ends after its closing line', '```js\na\n\nb\n```\nnext', 15],
    ['a shorter closing fence does not close a longer one', '````\na\n```\n', -1],
    ['a tilde fence closes with tildes only', '~~~\na\n```\n~~~~\nx', 15],
    ['CRLF blank lines end a paragraph too', 'para\r\n\r\nnext', 8],
  ])('%s', (_title, text, expected) => {
    expect(findBlockEnd(text, readBlockStart(text, 0), 0)).toBe(expected);
  });

  test('starts at `start` and finds a blank line split across two searches', () => {
    const text = 'done\n\nopen *block\n\nnext';
    const block = readBlockStart(text.slice(0, 18), 6);
    expect(findBlockEnd(text.slice(0, 18), block, 6)).toBe(-1);
    expect(findBlockEnd(text, block, 18)).toBe(19);
  });
});
