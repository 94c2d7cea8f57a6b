import { describe, expect, it } from 'vitest';
import { fitFocus } from './fit-focus.ts';

describe('fitFocus', () => {
  it('leaves a context within the limit, or without one, as it is', () => {
    const focus = { title: 'Order', text: 'x'.repeat(100) };
    expect(fitFocus(focus, 100)).toBe(focus);
    expect(fitFocus(focus, undefined)).toBe(focus);
  });

  it('cuts a longer text to exactly the limit, ending with a notice that says how long it was', () => {
    const notice = '\n[Cut: the page gave 500 characters.]';
    const fitted = fitFocus({ title: 'Order', text: 'abcde'.repeat(100) }, 100);
    expect(fitted).toEqual({ title: 'Order', text: 'abcde'.repeat(100).slice(0, 100 - notice.length) + notice });
    expect(fitted.text).toHaveLength(100);
  });
});
