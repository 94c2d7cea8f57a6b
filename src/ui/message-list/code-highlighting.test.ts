import { afterEach, describe, expect, it, vi } from 'vitest';
import { highlightCode } from '../../highlight/highlight-code.ts';
import type { HighlightCode } from '../../parts/highlight/highlight-global.ts';
import { provideHighlighter } from '../../parts/highlight/highlight-on-demand.ts';
import { createMessage, mountAgentChat, nextFrame } from '../test-support/mount-agent-chat.ts';

// One page for the whole file: the highlighter, once it has arrived, stays (as on a real page).
let arrive: (highlight: HighlightCode) => void = () => undefined;
const load = vi.fn(() => new Promise<HighlightCode>((resolve) => (arrive = resolve)));
provideHighlighter(load);

afterEach(() => {
  document.body.replaceChildren();
});

describe('code highlighting on demand', () => {
  it('never loads the highlighter for answers without a code block that names a language', async () => {
    const { emit } = await mountAgentChat();
    await emit({
      messages: [createMessage({ messageId: 'a1', content: 'Plain `code`:\n\n```\nls -la\n```\n\n    indented\n' })],
    });
    expect(load).not.toHaveBeenCalled();
  });

  it('does not load it for a block still streaming in the open tail', async () => {
    const { emit } = await mountAgentChat();
    await emit({
      messages: [createMessage({ messageId: 'a1', status: 'streaming', content: 'Here:\n\n```ts\nconst a = 1;\n' })],
    });
    expect(load).not.toHaveBeenCalled();
  });

  it('loads it once for finished blocks, then highlights them without touching the rest', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [
        createMessage({
          messageId: 'a1',
          content: 'One:\n\n```ts\nconst a = 1;\n```\n\nTwo:\n\n```py\ndef f(): pass\n```\n',
        }),
        createMessage({ messageId: 'a2', content: '```brainfuck\n+++.\n```\n' }),
      ],
    });
    expect(load).toHaveBeenCalledTimes(1);
    const paragraph = root.querySelector('.markdown p');
    expect(root.querySelector('.hljs-keyword')).toBe(null);
    arrive(highlightCode);
    const blocks = Array.from(root.querySelectorAll('pre.ac-code'));
    await vi.waitFor(() => expect(blocks[1]?.querySelector('.hljs-keyword')?.textContent).toBe('def'));
    expect(blocks[0]?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(load).toHaveBeenCalledTimes(1);
    expect(root.querySelector('.markdown p')).toBe(paragraph);
    expect(blocks.map((pre) => pre.querySelector('.ac-code-lang')?.textContent)).toEqual(['ts', 'py', 'brainfuck']);
    expect(blocks.map((pre) => pre.querySelectorAll(':scope > button.ac-copy').length)).toEqual([1, 1, 1]);
    expect(blocks[2]?.querySelector('code')?.innerHTML).toBe('+++.');
    (blocks[0]?.querySelector('button.ac-copy') as HTMLButtonElement).click();
    expect(writeText.mock.calls).toEqual([['const a = 1;']]);
  });

  it('highlights a block as soon as it is finished once the highlighter is here, not while it streams', async () => {
    const { root, emit } = await mountAgentChat();
    const streaming = (content: string) => createMessage({ messageId: 'a1', status: 'streaming', content });
    await emit({ messages: [streaming('```ts\nconst a = 1;\n')] });
    await nextFrame();
    expect(root.querySelector('.hljs-keyword')).toBe(null);
    // The block is finished once a later block starts on a complete line.
    await emit({ messages: [streaming('```ts\nconst a = 1;\n```\n\nAnd then\n')] });
    await nextFrame();
    expect(root.querySelector('.ac-done .hljs-keyword')?.textContent).toBe('const');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
