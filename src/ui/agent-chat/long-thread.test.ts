import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/index.ts';
import { createMessage, mountAgentChat, nextFrame } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

/** `count` turns of the conversation `label`, each a question and an answer with a code block. */
function turns(label: string, count: number): SnapshotMessage[] {
  return Array.from({ length: count }, (_, turn) => [
    createMessage({ messageId: `${label}-u${turn}`, role: 'user', content: `${label} question ${turn}` }),
    createMessage({
      messageId: `${label}-a${turn}`,
      content: `${label} answer ${turn}:\n\n\`\`\`ts\nconst step${turn} = ${turn};\n\`\`\``,
    }),
  ]).flat();
}

describe('<agent-chat> with a long thread', () => {
  it('skips rendering rows far from the view but keeps their text in the DOM (find-in-page, copy)', async () => {
    const { element, root, emit } = await mountAgentChat();
    element.style.setProperty('--agent-chat-height', '400px');
    await emit({ messages: turns('long', 150) });
    await nextFrame();
    await nextFrame();
    const rows = [...root.querySelectorAll<HTMLElement>('.transcript-content > *')];
    const first = rows.find((row) => row.textContent?.includes('long question 0'));
    const last = rows.findLast((row) => row.textContent?.includes('long answer 149'));
    if (!first || !last) throw new Error('the first and last turns are not in the transcript');
    expect(getComputedStyle(first).contentVisibility).toBe('auto');
    // The oldest row's content is skipped (not rendered), the newest one's, in view, is not.
    const firstText = first.firstElementChild;
    const lastText = last.firstElementChild;
    if (!firstText || !lastText) throw new Error('the rows have no content');
    expect(firstText.checkVisibility({ contentVisibilityAuto: true })).toBe(false);
    expect(lastText.checkVisibility({ contentVisibilityAuto: true })).toBe(true);
    // Its text is still there for the browser's find and for a selection's copy.
    const range = document.createRange();
    range.selectNodeContents(first);
    expect(range.toString()).toContain('long question 0');
  });

  it('leaves no row of the previous conversation after a switch', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({ sessionId: 'ses_long', messages: turns('long', 100) });
    expect(root.querySelectorAll('[part~="message"]').length).toBe(200);
    await emit({ sessionId: 'ses_other', messages: turns('other', 3) });
    const texts = [...root.querySelectorAll('[part~="message"]')].map((row) => row.textContent ?? '');
    expect(texts.length).toBe(6);
    expect(texts.filter((text) => text.includes('long '))).toEqual([]);
    expect(root.querySelector('.transcript-content')?.textContent).not.toContain('long question');
  });
});
