import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { AgentChatErrorDetail } from './agent-chat-events.ts';
import { FakeAgentClient } from '../test-support/fake-agent-client.ts';
import { createMessage, mountAgentChat, nextFrame } from '../test-support/mount-agent-chat.ts';
import { createSampleState } from '../test-support/sample-state.ts';
// The zh-CN tests below need the Chinese pack, which the IIFE leaves to agent-chat.zh-CN.js.
import '../../locales/zh-cn.ts';

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

describe('<agent-chat> binding', () => {
  it('subscribes while connected and feeds visibility and online signals to the client', async () => {
    const { element, client } = await mountAgentChat();
    expect(client.listenerCount).toBe(1);
    expect(client.calls).toEqual([
      { name: 'setVisibility', visible: true },
      { name: 'setOnline', online: true },
    ]);
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    expect(client.calls.slice(2)).toEqual([
      { name: 'setOnline', online: false },
      { name: 'setOnline', online: true },
    ]);
    element.remove();
    expect(client.listenerCount).toBe(0);
    window.dispatchEvent(new Event('offline'));
    expect(client.calls.length).toBe(4);
  });
});

describe('<agent-chat> reasoning', () => {
  it('streams open and collapses once the answer starts', async () => {
    const { root, emit } = await mountAgentChat();
    const reasoning = createMessage({
      messageId: 'r1',
      role: 'reasoning',
      content: 'Thinking it through',
      status: 'streaming',
    });
    await emit({ messages: [reasoning] });
    const panel = () => root.querySelector('[part="reasoning"]') as HTMLDetailsElement;
    const summary = () => panel().querySelector('summary') as HTMLElement;
    expect(panel().open).toBe(true);
    expect(summary().textContent).toBe('Thinking…');
    expect(panel().querySelector('.reasoning-body')?.textContent).toBe('Thinking it through');
    await emit({
      messages: [
        { ...reasoning, status: 'complete' },
        createMessage({ messageId: 'a1', content: 'An', status: 'streaming' }),
      ],
    });
    expect(panel().open).toBe(false);
    expect(summary().textContent).toBe('Reasoning');
    summary().focus();
    await userEvent.keyboard('{Enter}');
    await emit({});
    expect(panel().open).toBe(true);
  });

  it('stays open when collapseReasoning is false', async () => {
    const { root, emit } = await mountAgentChat((element) => {
      element.collapseReasoning = false;
    });
    await emit({
      messages: [
        createMessage({ messageId: 'r1', role: 'reasoning', content: 'Plan' }),
        createMessage({ messageId: 'a1', content: 'Answer' }),
      ],
    });
    expect((root.querySelector('[part="reasoning"]') as HTMLDetailsElement).open).toBe(true);
  });
});

describe('<agent-chat> errors and status', () => {
  it('shows a failed request after the turn, with a copyable reference and Retry, which calls retry() and emits agent-chat-error once', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    const errors: AgentChatErrorDetail[] = [];
    element.addEventListener('agent-chat-error', (event) => errors.push(event.detail));
    const error = {
      code: 'AGENT_UNAVAILABLE',
      message: 'The agent is unavailable.',
      reference: 'req_42',
      retryable: true,
      source: 'request' as const,
    };
    await emit({ messages: [createMessage({ messageId: 'u1', role: 'user', content: 'Hi' })], error });
    await emit({ connection: 'idle' });
    const box = root.querySelector('[part="error"]') as HTMLElement;
    expect(box.getAttribute('role')).toBe('alert');
    expect(box.parentElement?.className).toBe('transcript-content');
    expect(box.previousElementSibling?.getAttribute('part')).toBe('message user-message');
    expect(box.querySelector('.error-message')?.textContent).toBe('The agent is unavailable.');
    // The reference, for support, waits behind Details.
    expect(box.querySelector('details.error-details:not([open]) code.reference')?.textContent).toBe('req_42');
    expect(box.querySelector('details.error-details > summary')?.textContent).toBe('Details');
    expect(errors).toEqual([error]);
    (root.querySelector('[part="retry-button"]') as HTMLButtonElement).click();
    expect(client.calls.at(-1)).toEqual({ name: 'retry' });
    await emit({ error: { ...error, retryable: false } });
    expect(root.querySelector('[part="retry-button"]')).toBe(null);
    await emit({ error: null });
    expect(root.querySelector('[part="error"]')).toBe(null);
  });

  it("keeps a failed run's error with its turn, with Retry only while it is the current retryable error", async () => {
    const { client, root, emit } = await mountAgentChat();
    const failure = {
      code: 'MODEL_ERROR',
      message: 'The model failed.',
      reference: 'corr_1',
      retryable: true,
      source: 'run' as const,
      runId: 'run-1',
    };
    await emit({
      messages: [createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' })],
      runErrors: [failure],
      error: failure,
    });
    const row = root.querySelector('[part="run-error"]') as HTMLElement;
    expect(row.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'This answer failed: The model failed. Details Reference: corr_1 Retry',
    );
    expect(row.querySelector('details.error-details:not([open]) code.reference')?.textContent).toBe('corr_1');
    expect(root.querySelector('[part="error"]')).toBe(null);
    // With the keyboard: Retry goes once the retry starts, and focus goes on to the composer, not <body>.
    (row.querySelector('[part="retry-button"]') as HTMLButtonElement).focus();
    await userEvent.keyboard('{Enter}');
    expect(client.calls.at(-1)).toEqual({ name: 'retry' });
    await emit({ error: null });
    expect(root.querySelector('[part="run-error"] [part="retry-button"]')).toBe(null);
    expect(root.activeElement?.getAttribute('part')).toBe('input');
    expect(root.querySelector('[part="run-error"]')?.textContent).toContain('The model failed.');
  });

  it('shows the reference as a line of its own with showErrorReference', async () => {
    const { root, emit } = await mountAgentChat((chat) => (chat.showErrorReference = true));
    const failure = { code: 'MODEL_ERROR', message: 'The model failed.', reference: 'corr_2', retryable: false };
    await emit({
      messages: [createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' })],
      runErrors: [{ ...failure, source: 'run', runId: 'run-1' }],
      error: { ...failure, reference: 'req_2', source: 'request' },
    });
    expect(root.querySelector('[part="run-error"] > .error-reference code')?.textContent).toBe('corr_2');
    expect(root.querySelector('[part="error"] > .error-reference code')?.textContent).toBe('req_2');
    expect(root.querySelector('.error-details')).toBe(null);
  });

  it('offers Stop while the create is unanswered and says "Stopping…" at once until the run ends', async () => {
    const { root, client, emit } = await mountAgentChat();
    const stop = () => root.querySelector('[part="stop-button"]') as HTMLButtonElement | null;
    const status = root.querySelector('[part="status"]') as HTMLElement;
    await emit({ pendingSend: { clientMessageId: 'c1', text: '/slow', status: 'sending' } });
    expect(stop()?.getAttribute('aria-label')).toBe('Stop');
    stop()?.click();
    expect(client.calls.at(-1)).toEqual({ name: 'cancel' });
    await emit({ isStopping: true });
    expect([stop()?.getAttribute('aria-label'), stop()?.disabled, status.textContent]).toEqual([
      'Stopping…',
      true,
      'Stopping…',
    ]);
    await emit({
      pendingSend: null,
      isStopping: false,
      run: { runId: 'run-1', status: 'cancelled', lastSeq: 4 },
    });
    expect([stop(), status.textContent]).toEqual([null, '']);
  });

  it('shows the working row under a failed attempt kept while the run retries, and none once the retry streams', async () => {
    const { root, emit } = await mountAgentChat();
    const working = () => root.querySelector('[part="working"]')?.textContent ?? null;
    const user = createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' });
    const run = { runId: 'run-1', status: 'running' as const, lastSeq: 5 };
    await emit({
      run,
      messages: [user, createMessage({ messageId: 'a1', content: 'Half an', status: 'error', runId: 'run-1' })],
      discardedMessageIds: ['a1'],
    });
    expect(root.querySelector('[part~="assistant-message"][data-discarded]')?.textContent).toContain('Half an');
    expect(working()).toBe('Thinking…');
    await emit({
      messages: [user, createMessage({ messageId: 'a2', content: 'Rec', status: 'streaming', runId: 'run-1' })],
      discardedMessageIds: [],
    });
    expect(working()).toBe(null);
  });

  it('says "Reconnecting…" calmly in a polite status line', async () => {
    const { root, emit } = await mountAgentChat();
    const status = root.querySelector('[part="status"]') as HTMLElement;
    expect(status.getAttribute('role')).toBe('status');
    expect(status.textContent).toBe('');
    await emit({ connection: 'reconnecting' });
    expect(status.textContent).toBe('Reconnecting…');
    expect(root.querySelector('[role="alert"]')).toBe(null);
    await emit({ connection: 'streaming' });
    expect(status.textContent).toBe('');
  });
});

describe('<agent-chat> accessibility of the transcript', () => {
  it('is a log and announces each finished answer once, not its deltas', async () => {
    const { root, emit } = await mountAgentChat();
    const transcript = root.querySelector('[part="transcript"]') as HTMLElement;
    expect(transcript.getAttribute('role')).toBe('log');
    expect(transcript.getAttribute('aria-live')).toBe('off');
    const live = root.querySelector('.visually-hidden[aria-live="polite"]') as HTMLElement;
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Hello **wor', status: 'streaming' })] });
    expect(live.textContent).toBe('');
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Hello **world**.' })] });
    expect(live.textContent).toBe('Hello world.');
    await emit({
      messages: [
        createMessage({ messageId: 'a1', content: 'Hello **world**.' }),
        createMessage({ messageId: 'u2', role: 'user', content: 'Thanks' }),
      ],
    });
    expect(live.textContent).toBe('Hello world.');
    await emit({
      messages: [
        createMessage({ messageId: 'a1', content: 'Hello **world**.' }),
        createMessage({ messageId: 'a2', content: 'You are welcome.' }),
      ],
    });
    expect(live.textContent).toBe('You are welcome.');
  });

  it('shows a working row from the send until the answer shows something, and announces the wait once', async () => {
    const { root, emit } = await mountAgentChat();
    const working = () => root.querySelector('[part="working"]');
    const live = root.querySelector('.visually-hidden[aria-live="polite"]') as HTMLElement;
    const user = createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' });
    expect(working()).toBe(null);
    await emit({ pendingSend: { clientMessageId: 'c1', text: 'Hi', status: 'sending' } });
    expect(working()?.textContent).toBe('Thinking…');
    expect(working()?.getAttribute('aria-hidden')).toBe('true');
    expect(live.textContent).toBe('Thinking…');
    // Accepted: the run is active and the user's message is still the last row (also what a reload into the gap shows).
    await emit({ pendingSend: null, run: { runId: 'run-1', status: 'running', lastSeq: 1 }, messages: [user] });
    expect(working()).not.toBe(null);
    await emit({
      messages: [
        user,
        createMessage({ messageId: 'r1', role: 'reasoning', content: 'Let me see', status: 'streaming' }),
      ],
    });
    expect(working()).toBe(null);
    // A tool call is something to see, too; a finished run waits for nothing.
    await emit({ messages: [user], toolCalls: [{ toolCallId: 't1', name: 'orders.lookup', status: 'running' }] });
    expect(working()).toBe(null);
    await emit({ toolCalls: [], run: { runId: 'run-1', status: 'failed', lastSeq: 2 } });
    expect(working()).toBe(null);
    expect(live.textContent).toBe('Thinking…');
  });

  it('says "Reconnecting…" in the working row while a silent stream is reopened, never an empty turn', async () => {
    const { root, emit } = await mountAgentChat();
    const working = () => root.querySelector('[part="working"]')?.textContent;
    const user = createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' });
    await emit({ run: { runId: 'run-1', status: 'running', lastSeq: 3 }, messages: [user], connection: 'streaming' });
    expect(working()).toBe('Thinking…');
    await emit({ connection: 'reconnecting' });
    expect(working()).toBe('Reconnecting…');
    await emit({ connection: 'streaming' });
    expect(working()).toBe('Thinking…');
  });

  it('says in the working row when the server tries the model again, counting down, then that it is retrying now', async () => {
    const { root, emit } = await mountAgentChat();
    const working = () => root.querySelector('[part="working"]')?.textContent;
    const user = createMessage({ messageId: 'u1', role: 'user', content: 'Hi', runId: 'run-1' });
    const retryAt = new Date(Date.now() + 2500).toISOString();
    await emit({
      run: { runId: 'run-1', status: 'running', lastSeq: 3 },
      messages: [user],
      notices: [{ level: 'info', code: 'MODEL_RETRYING', message: 'Trying again.', attempt: 2, retryAt }],
    });
    // No attempt number: the server's own retries are no tries of the user's.
    expect(working()).toBe('Retrying in 3 seconds…');
    await expect.poll(working, { timeout: 3000 }).toBe('Retrying in 2 seconds…');
    await expect.poll(working, { timeout: 4000 }).toBe('Retrying now…');
    // The next send waits on its own answer: the previous run's retry is not this wait's.
    await emit({
      run: { runId: 'run-1', status: 'completed', lastSeq: 9 },
      pendingSend: { clientMessageId: 'c2', text: 'And B?', status: 'sending' },
    });
    expect(working()).toBe('Thinking…');
  });

  it('does not announce answers that were already finished when it first saw the client', async () => {
    const client = new FakeAgentClient();
    client.emit({ messages: [createMessage({ messageId: 'a0', content: 'Old answer' })] });
    const { root } = await mountAgentChat(undefined, client);
    expect(root.querySelector('.visually-hidden[aria-live="polite"]')?.textContent).toBe('');
    expect(root.querySelector('[part~="assistant-message"]')?.textContent).toContain('Old answer');
  });
});

describe('<agent-chat> scrolling', () => {
  it('follows the stream, stops when the person scrolls up and offers "Jump to latest"', async () => {
    const { element, root, emit } = await mountAgentChat();
    element.style.setProperty('--agent-chat-height', '300px');
    const paragraphs = (count: number) =>
      Array.from({ length: count }, (_, index) => `Paragraph ${index}.`).join('\n\n');
    await emit({ messages: [createMessage({ messageId: 'a1', content: paragraphs(30), status: 'streaming' })] });
    await nextFrame();
    const transcript = root.querySelector('[part="transcript"]') as HTMLElement;
    const distance = () => transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight;
    expect(transcript.scrollHeight).toBeGreaterThan(transcript.clientHeight);
    expect(distance()).toBeLessThanOrEqual(1);
    expect(root.querySelector('[part="jump-button"]')).toBe(null);

    // The person's wheel, then their scroll up.
    transcript.dispatchEvent(new WheelEvent('wheel', { deltaY: -1000 }));
    transcript.scrollTop = 0;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    await emit({ messages: [createMessage({ messageId: 'a1', content: paragraphs(40), status: 'streaming' })] });
    await nextFrame();
    expect(transcript.scrollTop).toBe(0);
    const jump = root.querySelector('[part="jump-button"]') as HTMLButtonElement;
    expect(jump.textContent?.trim()).toBe('↓ Jump to latest');

    jump.click();
    await emit({ messages: [createMessage({ messageId: 'a1', content: paragraphs(50), status: 'streaming' })] });
    await nextFrame();
    expect(distance()).toBeLessThanOrEqual(1);
    expect(root.querySelector('[part="jump-button"]')).toBe(null);
  });
});

describe('<agent-chat> scrolling while following', () => {
  /** A widget whose transcript overflows and follows its end, and how far it is from that end. */
  async function mountFollowingTranscript() {
    const { element, root, emit } = await mountAgentChat();
    element.style.setProperty('--agent-chat-height', '300px');
    const content = Array.from({ length: 20 }, (_, index) => `Paragraph ${index}.`).join('\n\n');
    await emit({ messages: [createMessage({ messageId: 'a1', content })] });
    const transcript = root.querySelector('[part="transcript"]') as HTMLElement;
    const distance = () => transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight;
    expect(distance()).toBeLessThanOrEqual(1);
    return { element, root, transcript, distance };
  }

  it('stays at the bottom when the content grows before the scroll event of its last follow arrives', async () => {
    const { element, root, transcript, distance } = await mountFollowingTranscript();
    // A row grows by 27 px (a card arriving from its file), and the follow's scroll event comes before the resize is seen.
    const growth = document.createElement('div');
    growth.style.height = '27px';
    root.querySelector('.transcript-content')?.append(growth);
    expect(distance()).toBeGreaterThan(24);
    transcript.dispatchEvent(new Event('scroll'));
    await nextFrame();
    await element.updateComplete;
    expect(distance()).toBeLessThanOrEqual(1);
    expect(root.querySelector('[part="jump-button"]')).toBe(null);
  });

  it('stays at the bottom when layout alone moves the scroll up while rows below grow (a restore settling)', async () => {
    const { element, root, transcript, distance } = await mountFollowingTranscript();
    // Rows above settle smaller (the scroll moves up 40 px with them) while a card below grows 64 px:
    // no input of the person's came first, so this is no scroll of theirs.
    transcript.scrollTop -= 40;
    const growth = document.createElement('div');
    growth.style.height = '64px';
    root.querySelector('.transcript-content')?.append(growth);
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    await nextFrame();
    await element.updateComplete;
    expect(distance()).toBeLessThanOrEqual(1);
    expect(root.querySelector('[part="jump-button"]')).toBe(null);

    // The same scroll after the person's own input leaves the bottom, and says where the latest is.
    transcript.dispatchEvent(new PointerEvent('pointerdown'));
    transcript.scrollTop -= 40;
    await new Promise((resolve) => transcript.addEventListener('scroll', resolve, { once: true }));
    await element.updateComplete;
    expect(distance()).toBeGreaterThan(24);
    expect(root.querySelector('[part="jump-button"]')).not.toBe(null);
  });
});

describe('<agent-chat> i18n', () => {
  it('speaks Simplified Chinese for zh-CN and takes string overrides', async () => {
    const { root, emit } = await mountAgentChat((element) => {
      element.locale = 'zh-CN';
      element.strings = { send: '发出' };
    });
    await emit({
      connection: 'reconnecting',
      messages: [createMessage({ messageId: 'u1', role: 'user', content: 'مرحبا' })],
    });
    expect(root.querySelector('[part="send-button"]')?.getAttribute('aria-label')).toBe('发出');
    expect(root.querySelector('[part="new-conversation-button"]')?.getAttribute('aria-label')).toBe('新对话');
    expect(root.querySelector('textarea')?.getAttribute('aria-label')).toBe('消息');
    expect(root.querySelector('[part="status"]')?.textContent).toBe('正在重新连接…');
    expect(root.querySelector('[part="transcript"]')?.getAttribute('aria-label')).toBe('对话');
    expect(root.querySelector('[part~="user-message"] .message-body')?.getAttribute('dir')).toBe('auto');
  });
});

describe('<agent-chat> look', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`has zero axe violations in the ${theme} theme`, async () => {
      const { element, emit } = await mountAgentChat((chat) => {
        chat.theme = theme;
        chat.getReferences = () => [{ title: 'Docs', url: 'https://example.com/docs' }];
      });
      await emit({
        ...createSampleState(),
        error: {
          code: 'TIMEOUT',
          message: 'The request timed out.',
          reference: 'req_7',
          retryable: true,
          source: 'request',
        },
      });
      const results = await axe.run(element, { resultTypes: ['violations'] });
      expect(
        results.violations.map(
          (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([]);
      await page.screenshot({ element, path: `../../../test-results/screenshots/agent-chat-${theme}.png` });
    });
  }

  it('ignores the host page root font size and host CSS', async () => {
    const style = document.createElement('style');
    style.textContent = 'html { font-size: 40px; } agent-chat p, button { color: red; font-size: 3rem; }';
    document.head.append(style);
    try {
      const { root, emit } = await mountAgentChat();
      await emit({ messages: [createMessage({ messageId: 'a1', content: 'Plain' })] });
      const paragraph = root.querySelector('.markdown p') as HTMLElement;
      expect(getComputedStyle(paragraph).fontSize).toBe('14px');
      expect(getComputedStyle(root.querySelector('[part="send-button"]') as HTMLElement).fontSize).toBe('13px');
      expect(root.querySelectorAll('[style]').length).toBe(0);
    } finally {
      style.remove();
    }
  });
});
