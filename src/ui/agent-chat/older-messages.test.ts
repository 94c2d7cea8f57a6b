import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/index.ts';
import { createMessage, mountAgentChat, nextFrame } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

/** Turns `from`…`to - 1`, each a question and a two-paragraph answer. */
function turns(from: number, to: number): SnapshotMessage[] {
  return Array.from({ length: to - from }, (_, offset) => {
    const turn = from + offset;
    return [
      createMessage({ messageId: `u${turn}`, role: 'user', content: `Question ${turn}` }),
      createMessage({ messageId: `a${turn}`, content: `Answer ${turn}.\n\nWith a second paragraph.` }),
    ];
  }).flat();
}

const loadCalls = (calls: readonly { name: string }[]): number =>
  calls.filter((call) => call.name === 'loadOlderMessages').length;

describe('<agent-chat> older messages', () => {
  it('loads them when scrolled to the top, says so politely, and keeps the row in view where it was', async () => {
    const { element, root, client, emit } = await mountAgentChat();
    element.style.setProperty('--agent-chat-height', '400px');
    await emit({ messages: turns(20, 40), hasOlderMessages: true });
    await nextFrame();
    const transcript = root.querySelector('[part="transcript"]') as HTMLElement;
    expect(transcript.scrollTop).toBeGreaterThan(transcript.clientHeight);
    expect(loadCalls(client.calls)).toBe(0);
    const status = root.querySelector('.older-status') as HTMLElement;
    expect([status.getAttribute('role'), status.textContent]).toEqual(['status', '']);

    // One jump to the top: the rows that come into view resize before the scroll event arrives,
    // and the transcript must not follow the stream back down meanwhile.
    transcript.dispatchEvent(new WheelEvent('wheel', { deltaY: -1000 }));
    transcript.scrollTop = 0;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    expect(transcript.scrollTop).toBe(0);
    expect(loadCalls(client.calls)).toBe(1);
    await emit({ isLoadingOlderMessages: true });
    expect(root.querySelector('.older-status')?.textContent).toBe('Loading earlier messages…');
    const anchor = root.querySelector('[part~="user-message"]') as HTMLElement;
    const anchorTop = anchor.getBoundingClientRect().top;

    await emit({ messages: turns(0, 40), hasOlderMessages: false, isLoadingOlderMessages: false });
    expect(root.querySelector('.older-status')).toBe(null);
    const questions = root.querySelectorAll('[part~="user-message"]');
    expect([questions.length, questions[20]]).toEqual([40, anchor]);
    expect(Math.abs(anchor.getBoundingClientRect().top - anchorTop)).toBeLessThanOrEqual(1);
    expect(transcript.scrollTop).toBeGreaterThan(0);

    transcript.dispatchEvent(new WheelEvent('wheel', { deltaY: -1000 }));
    transcript.scrollTop = 0;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    expect(loadCalls(client.calls)).toBe(1);
  });

  it('holds the row in view while the rows that landed above it take their real size, until the person scrolls', async () => {
    const { element, root, emit } = await mountAgentChat();
    element.style.setProperty('--agent-chat-height', '400px');
    await emit({ messages: turns(20, 40), hasOlderMessages: true });
    await nextFrame();
    const transcript = root.querySelector('[part="transcript"]') as HTMLElement;
    transcript.dispatchEvent(new WheelEvent('wheel', { deltaY: -1000 }));
    transcript.scrollTop = 0;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    const anchor = root.querySelector('[part~="user-message"]') as HTMLElement;
    const anchorTop = anchor.getBoundingClientRect().top;
    await emit({ messages: turns(0, 40), hasOlderMessages: false });
    const rows = Array.from(root.querySelectorAll('.transcript-content > *')) as HTMLElement[];
    const above = rows[rows.indexOf(anchor) - 1] as HTMLElement;

    // A row above settles 60 px taller (as an estimated row does once laid out): the row stays put.
    above.style.height = `${above.getBoundingClientRect().height + 60}px`;
    await nextFrame();
    await nextFrame();
    expect(Math.abs(anchor.getBoundingClientRect().top - anchorTop)).toBeLessThanOrEqual(1);

    // The person scrolls up 100 px: a later resize (a row below grows) leaves them where they went.
    transcript.scrollTop -= 100;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    const below = rows[rows.indexOf(anchor) + 1] as HTMLElement;
    below.style.height = `${below.getBoundingClientRect().height + 60}px`;
    await nextFrame();
    await nextFrame();
    expect(Math.abs(anchor.getBoundingClientRect().top - (anchorTop + 100))).toBeLessThanOrEqual(1);
  });

  it('loads the next page at once when a restored page does not fill the screen, but not while hidden', async () => {
    const hidden = await mountAgentChat((element) => (element.hidden = true));
    await hidden.emit({ messages: turns(9, 10), hasOlderMessages: true });
    expect(loadCalls(hidden.client.calls)).toBe(0);
    hidden.element.remove();

    const { client, emit } = await mountAgentChat();
    // As the real client does, a call shows the page loading at once.
    client.nextOlderPage = async () => client.emit({ isLoadingOlderMessages: true });
    await emit({ messages: turns(9, 10), hasOlderMessages: true });
    expect(loadCalls(client.calls)).toBe(1);
    // While that page is read, updates ask for nothing more.
    await emit({ isLoadingOlderMessages: true });
    await emit({ messages: turns(8, 10), isLoadingOlderMessages: true });
    expect(loadCalls(client.calls)).toBe(1);
    await emit({ messages: turns(7, 10), isLoadingOlderMessages: false });
    expect(loadCalls(client.calls)).toBe(2);
  });
});
