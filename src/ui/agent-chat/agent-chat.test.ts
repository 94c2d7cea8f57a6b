import { afterEach, describe, expect, it } from 'vitest';
import { createMessage, mountAgentChat, nextFrame } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

describe('<agent-chat> streaming', () => {
  it('grows an assistant answer while earlier finished blocks stay the same DOM nodes', async () => {
    const { root, emit } = await mountAgentChat();
    const stream = (content: string, status: 'streaming' | 'complete' = 'streaming') =>
      emit({ messages: [createMessage({ messageId: 'a1', content, status })] });
    await stream('First paragraph.\n\nSecond one.\n\nThi');
    const body = root.querySelector('[part~="assistant-message"] .markdown') as HTMLElement;
    const texts = () => Array.from(body.querySelectorAll('p'), (p) => p.textContent);
    expect(texts()).toEqual(['First paragraph.', 'Second one.', 'Thi']);
    const first = body.querySelector('p');
    await stream('First paragraph.\n\nSecond one.\n\nThird.\n\nFou');
    expect(texts()).toEqual(['First paragraph.', 'Second one.', 'Third.', 'Fou']);
    const second = body.querySelectorAll('p')[1];
    await stream('First paragraph.\n\nSecond one.\n\nThird.\n\nFourth **bold**.', 'complete');
    const paragraphs = body.querySelectorAll('p');
    expect(paragraphs[0]).toBe(first);
    expect(paragraphs[1]).toBe(second);
    expect(paragraphs[3]?.innerHTML).toBe('Fourth <strong>bold</strong>.');
    expect(root.querySelector('[part~="assistant-message"] .markdown')).toBe(body);
  });
});
