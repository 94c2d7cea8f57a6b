import { describe, expect, test } from 'vitest';
import { createSteppingClock } from '../test-support/stepping-clock.ts';
import { BUDGET_MAX_CREDIT_MS, BUDGET_MS_PER_CHARACTER } from './render-budget.ts';
import { renderMarkdown } from './render-markdown.ts';
import { createStreamingMarkdown, TAIL_RENDER_LIMIT_MS } from './streaming-markdown.ts';

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

function unwrapped(container: HTMLElement): string {
  return Array.from(container.children, (child) => child.innerHTML).join('');
}

const tail = (container: HTMLElement): Element | null => container.querySelector(':scope > .ac-tail');
/** A 1,100-character paragraph of two lines with emphasis, so Markdown and escaped text differ. */
const LONG_PARAGRAPH = `A long paragraph\n${'word **bold** '.repeat(79)}`.slice(0, 1_100);

describe('the render budget of a streamed message', () => {
  test('an over-budget tail renders as escaped text, then once as Markdown when its block closes', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    clock.step = 15;
    stream.update(`Intro.\n\n${LONG_PARAGRAPH}`);
    stream.update(`Intro.\n\n${LONG_PARAGRAPH} more`);
    expect(tail(container)?.innerHTML).toContain('<strong>bold</strong>');
    // Two renders of 15 ms at about 1,105 characters predict 15 × (1,505 / 1,105)² ≈ 27.8 ms for 400 more: over budget.
    const grown = `${LONG_PARAGRAPH} more ${'text **x** '.repeat(36)}`;
    clock.step = 1;
    stream.update(`Intro.\n\n${grown}`);
    expect(stream.stats.blocksOverBudget).toBe(1);
    expect(tail(container)?.innerHTML).toBe(
      `<p class="ac-plain">${grown.slice(0, 1_000)}</p><p class="ac-plain">${grown.slice(1_000)}</p>`,
    );
    stream.update(`Intro.\n\n${grown} end`);
    expect(tail(container)?.textContent).toBe(`${grown} end`);
    // The block closes: predicted ≈ 28 ms ≤ 40 ms, so it renders once as Markdown and is final.
    const markdown = `Intro.\n\n${grown} end\n\nNext *para*`;
    stream.update(markdown);
    const finished = container.querySelector(':scope > .ac-done');
    expect(finished?.querySelectorAll('p').length).toBe(2);
    expect(finished?.querySelector('p:last-child strong')?.textContent).toBe('bold');
    expect(tail(container)?.innerHTML).toBe('<p>Next <em>para</em></p>\n');
    stream.finish();
    expect(unwrapped(container)).toBe(serialize(renderMarkdown(markdown)));
  });

  test('an over-budget block whose one render is predicted over the limit stays escaped text', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    clock.step = 45;
    stream.update(LONG_PARAGRAPH);
    stream.update(`${LONG_PARAGRAPH} more`);
    clock.step = 0;
    const grown = `${LONG_PARAGRAPH} more **x**`;
    stream.update(grown);
    expect(stream.stats.blocksOverBudget).toBe(1);
    stream.update(`${grown}\n\nafter`);
    stream.finish();
    expect(container.innerHTML).toBe(
      `<div class="ac-done"><p class="ac-plain">${grown.slice(0, 1_000)}</p><p class="ac-plain">${grown.slice(1_000)}</p></div><div class="ac-tail"><p>after</p>\n</div>`,
    );
  });

  test('the last block, over budget at finish, gets its one Markdown render only when predicted within the limit', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    clock.step = TAIL_RENDER_LIMIT_MS;
    stream.update(LONG_PARAGRAPH);
    clock.step = 0;
    stream.update(`${LONG_PARAGRAPH} and **more**`);
    expect(tail(container)?.firstElementChild?.className).toBe('ac-plain');
    stream.finish();
    expect(unwrapped(container)).toBe(serialize(renderMarkdown(`${LONG_PARAGRAPH} and **more**`)));
  });

  test('renders are spaced out so their time stays within the credit the characters earned', () => {
    const clock = createSteppingClock();
    clock.step = 2;
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    const markdown = Array.from({ length: 400 }, (_, index) => `Paragraph ${index} with *some* text.`).join('\n\n');
    let updates = 0;
    for (let end = 4; end < markdown.length + 4; end += 4) {
      stream.update(markdown.slice(0, end));
      updates += 1;
    }
    const spent = stream.stats.tailRenders * clock.step;
    expect(stream.stats.tailRenders).toBeLessThan(updates / 4);
    expect(spent).toBeLessThanOrEqual(BUDGET_MAX_CREDIT_MS + markdown.length * BUDGET_MS_PER_CHARACTER + clock.step);
    stream.finish();
    expect(unwrapped(container)).toBe(serialize(renderMarkdown(markdown)));
  });

  test('a stream that arrives slowly shows every token at once: the time between tokens pays for the renders', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    // Renders of 3 ms against 0.2 ms earned per 5-character token: a burst would fall behind at once.
    clock.step = 3;
    let markdown = 'A slow answer';
    for (let index = 0; index < 200; index += 1) {
      // 20 tokens a second: 50 ms pass between tokens.
      clock.idleTime += 50;
      markdown += ` w${index % 100}`.padEnd(5, 'x');
      stream.update(markdown);
      expect(tail(container)?.textContent.trim()).toBe(markdown);
    }
    expect(stream.stats.tailRenders).toBe(200);
  });

  test('catchUp() shows what the budget held back, once the stream pauses', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    clock.step = 20;
    let markdown = 'One **bold** word';
    for (let index = 0; index < 10; index += 1) {
      markdown += ' and';
      stream.update(markdown);
    }
    const expected = `<p>One <strong>bold</strong> word${' and'.repeat(10)}</p>\n`;
    expect(tail(container)?.innerHTML).not.toBe(expected);
    stream.catchUp();
    expect(tail(container)?.innerHTML).toBe(expected);
    const renders = stream.stats.tailRenders;
    stream.catchUp();
    expect(stream.stats.tailRenders).toBe(renders);
  });

  test('a quadratically slow input streams within 2 s per 20,000 characters and 50 ms per update', () => {
    const clock = createSteppingClock();
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { now: clock.now, idleNow: clock.idle });
    // Every render costs as alternating emphasis did before the budget: quadratic in the open block.
    const markdown = '*a_'.repeat(6_667).slice(0, 20_000);
    let worst = 0;
    let renders = 0;
    for (let end = 4; end < markdown.length + 4; end += 4) {
      const length = Math.min(end, markdown.length);
      // Markdown renders cost 10 ms at 1,000 characters, quadratically more after; escaped text is cheap.
      clock.step = stream.stats.blocksOverBudget > 0 ? 0.05 : 10 * (length / 1_000) ** 2;
      stream.update(markdown.slice(0, length));
      if (stream.stats.tailRenders > renders) worst = Math.max(worst, clock.step);
      renders = stream.stats.tailRenders;
    }
    const lexedBefore = stream.stats.charactersLexed;
    stream.finish();
    expect(worst).toBeLessThanOrEqual(50);
    expect(clock.time).toBeLessThanOrEqual(2_000);
    // The last block stays escaped text: finish() does not lex 20,000 characters predicted at 4 s.
    expect(stream.stats.charactersLexed).toBe(lexedBefore);
    const paragraphs = Array.from(container.querySelectorAll('p'));
    expect(paragraphs.every((paragraph) => paragraph.className === 'ac-plain')).toBe(true);
    expect(paragraphs.map((paragraph) => paragraph.textContent).join('')).toBe(markdown);
    expect(Math.max(...paragraphs.map((paragraph) => paragraph.textContent.length))).toBe(1_000);
  });
});
