import { describe, expect, it } from 'vitest';
import { createCodeHighlighter, HIGHLIGHT_BURST_MS, HIGHLIGHT_MAX_LENGTH, highlightCode } from './highlight-code.ts';

describe('highlightCode', () => {
  it('highlights a registered language as escaped text in hljs- spans', () => {
    const html = highlightCode('const a: string = "</span><script>x()</script>";', 'ts');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('&lt;/span&gt;&lt;script&gt;');
    expect(html).not.toContain('<script>');
    const holder = document.createElement('div');
    holder.innerHTML = html ?? '';
    expect(holder.textContent).toBe('const a: string = "</span><script>x()</script>";');
  });

  it('answers to the common aliases', () => {
    for (const alias of [
      'js',
      'ts',
      'py',
      'sh',
      'shell',
      'html',
      'json',
      'sql',
      'go',
      'rs',
      'c',
      'cpp',
      'cs',
      'java',
      'yml',
      'md',
      'diff',
    ]) {
      expect(highlightCode('x', alias), alias).toBeTypeOf('string');
    }
  });

  it('leaves unknown languages, empty names and code over the limit plain, never guessing', () => {
    expect(highlightCode('let x = 1', 'brainfuck')).toBeUndefined();
    expect(highlightCode('let x = 1', '')).toBeUndefined();
    expect(highlightCode('__proto__', '__proto__')).toBeUndefined();
    expect(highlightCode('a'.repeat(HIGHLIGHT_MAX_LENGTH + 1), 'ts')).toBeUndefined();
    expect(highlightCode('a'.repeat(HIGHLIGHT_MAX_LENGTH), 'ts')).toBeTypeOf('string');
  });

  it('keeps a hostile block of the longest length well under a second', () => {
    const started = performance.now();
    highlightCode('$'.repeat(HIGHLIGHT_MAX_LENGTH), 'java');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops highlighting once its burst is spent, and earns time back between calls', () => {
    let time = 0;
    let reads = 0;
    // The first read is the highlighter's creation; then each call reads at its start and at its end, 80 ms later.
    const highlight = createCodeHighlighter(() => (reads++ > 0 && reads % 2 === 1 ? (time += 80) : time));
    expect(HIGHLIGHT_BURST_MS).toBe(200);
    const results = Array.from({ length: 4 }, () => highlight('x', 'ts'));
    expect(results.map((result) => result !== undefined)).toEqual([true, true, true, false]);
    time += 1_000;
    expect(highlight('x', 'ts')).toBeTypeOf('string');
  });
});
