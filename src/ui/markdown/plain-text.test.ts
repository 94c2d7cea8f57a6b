import { describe, expect, test } from 'vitest';
import { appendPlainText, PLAIN_PARAGRAPH_LENGTH } from './plain-text.ts';

const lengths = (parent: Element): number[] => Array.from(parent.children, (child) => child.textContent.length);

describe('appendPlainText', () => {
  test('fills paragraphs of 1,000 characters, growing the last one on later calls', () => {
    const parent = document.createElement('div');
    appendPlainText(parent, 'a'.repeat(1_500));
    expect(lengths(parent)).toEqual([PLAIN_PARAGRAPH_LENGTH, 500]);
    appendPlainText(parent, '<b>'.repeat(200));
    expect(lengths(parent)).toEqual([1_000, 1_000, 100]);
    expect(parent.querySelectorAll('b').length).toBe(0);
    expect(Array.from(parent.children, (child) => child.className)).toEqual(['ac-plain', 'ac-plain', 'ac-plain']);
  });

  test('never splits a surrogate pair and removes hidden characters', () => {
    const parent = document.createElement('div');
    appendPlainText(parent, `${'a'.repeat(999)}😀b\u{E0041}\u200B`);
    expect(Array.from(parent.children, (child) => child.textContent)).toEqual(['a'.repeat(999), '😀b']);
  });
});
