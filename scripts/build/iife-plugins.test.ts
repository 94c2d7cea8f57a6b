import { describe, expect, test } from 'vitest';
import { minifyCss } from './iife-plugins.ts';

describe('minifyCss', () => {
  test('drops comments and insignificant whitespace but keeps descendant and pseudo selectors apart', () => {
    const css = `
      /* tokens */
      :host {
        --agent-chat-offset: 24px;
        color: var(--agent-chat-color-text);
      }
      .list :hover,
      [part='button']::after {
        margin: 0 auto;
      }
    `;
    expect(minifyCss(css)).toBe(
      ":host{--agent-chat-offset:24px;color:var(--agent-chat-color-text)}.list :hover,[part='button']::after{margin:0 auto}",
    );
  });

  test('drops the spaces around child combinators and leading zeros, not the spaces calc() needs', () => {
    expect(minifyCss('.a > * + * > :is(p) { opacity: 0.5; margin: calc(1px + 0.25em) 10.5px; }')).toBe(
      '.a>* + *>:is(p){opacity:.5;margin:calc(1px + .25em) 10.5px}',
    );
  });

  test('keeps media queries and nested rules intact', () => {
    expect(minifyCss('@media (prefers-color-scheme: dark) {\n  :host(:not([theme="light"])) { color: #fff; }\n}')).toBe(
      '@media (prefers-color-scheme:dark){:host(:not([theme="light"])){color:#fff}}',
    );
  });
});
