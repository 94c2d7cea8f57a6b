import { html } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventDataMap, EventEnvelope, EventType, RunSnapshot } from '../../core/index.ts';
import { createEmptyRunSnapshot, reduceRunEvents } from '../../core/index.ts';
import { createMessage, mountAgentChat } from '../test-support/mount-agent-chat.ts';
import { buildTranscriptItems, hasAnswerStarted } from './build-transcript-items.ts';
// The zh-CN tests below need the Chinese pack, which the IIFE leaves to agent-chat.zh-CN.js.
import '../../locales/zh-cn.ts';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('buildTranscriptItems', () => {
  it('without seq (stored before it was recorded): tool calls after their message, approvals with their tool, orphans last', () => {
    const items = buildTranscriptItems({
      messages: [
        createMessage({ messageId: 'u1', role: 'user' }),
        createMessage({ messageId: 'a1' }),
        createMessage({ messageId: 'a2' }),
      ],
      toolCalls: [
        { toolCallId: 't2', name: 'late', status: 'running' },
        { toolCallId: 't1', name: 'read', status: 'completed', parentMessageId: 'a1' },
      ],
      interrupts: [
        { id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'resolved', decision: 'allow' },
        { id: 'i2', reason: 'confirmation', state: 'open' },
      ],
    });
    expect(items.map((item) => item.key)).toEqual([
      'message:u1',
      'message:a1',
      'tool:t1',
      'message:a2',
      'tool:t2',
      'interrupt:i2',
    ]);
    expect(items[2]?.kind === 'tool' ? items[2].interrupts.map((interrupt) => interrupt.id) : []).toEqual(['i1']);
  });

  it('reads each run in the order its items were sequenced, whether or not text came before a call', () => {
    const message = (messageId: string, runId: string, seq: number, role: 'user' | 'assistant' = 'assistant') =>
      createMessage({ messageId, role, runId, seq });
    const call = (toolCallId: string, runId: string, seq: number) =>
      ({ toolCallId, name: 'read', status: 'completed', runId, seq }) as const;
    const items = buildTranscriptItems({
      // As a restored transcript has them: messages first, calls and approvals of every run after.
      messages: [
        message('u1', 'run-1', 1, 'user'),
        message('a1', 'run-1', 9),
        message('u2', 'run-2', 1, 'user'),
        message('a2', 'run-2', 4),
        message('a3', 'run-2', 12),
        message('u3', 'run-3', 1, 'user'),
      ],
      toolCalls: [call('t1', 'run-1', 3), call('t2', 'run-1', 5), call('t3', 'run-2', 8), call('t4', 'run-3', 3)],
      interrupts: [
        { id: 'i1', reason: 'tool_call', toolCallId: 't2', state: 'resolved', runId: 'run-1', seq: 6 },
        { id: 'i3', reason: 'input_required', state: 'open', runId: 'run-3', seq: 2 },
      ],
      runErrors: [
        { code: 'MODEL_ERROR', message: 'Failed', reference: null, retryable: true, source: 'run', runId: 'run-1' },
      ],
    });
    expect(items.map((item) => item.key)).toEqual([
      // Two calls before any text, then the answer, then the run's error.
      'message:u1',
      'tool:t1',
      'tool:t2',
      'message:a1',
      'failure:run-1',
      // Text, a call, then more text.
      'message:u2',
      'message:a2',
      'tool:t3',
      'message:a3',
      // A question asked before a call.
      'message:u3',
      'interrupt:i3',
      'tool:t4',
    ]);
    expect(items[2]?.kind === 'tool' ? items[2].interrupts.map((interrupt) => interrupt.id) : []).toEqual(['i1']);
  });

  it('says the answer started once a later assistant message of the same run has text', () => {
    const reasoning = createMessage({ messageId: 'r1', role: 'reasoning' });
    expect(hasAnswerStarted([reasoning, createMessage({ messageId: 'a1', content: '' })], 0)).toBe(false);
    expect(hasAnswerStarted([reasoning, createMessage({ messageId: 'a1', content: 'H' })], 0)).toBe(true);
    expect(hasAnswerStarted([reasoning, createMessage({ messageId: 'a1', content: 'H', runId: 'run-2' })], 0)).toBe(
      false,
    );
  });
});

describe('message list', () => {
  it('shows user text as text with its references, and the pending send until the server echoes it', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({ pendingSend: { clientMessageId: 'c1', text: '<b>hi</b>', status: 'sending' } });
    expect(root.querySelector('[part~="user-message"][data-status="sending"] .message-body')?.textContent).toBe(
      '<b>hi</b>',
    );
    await emit({
      messages: [
        createMessage({
          messageId: 'u1',
          role: 'user',
          clientMessageId: 'c1',
          content: '<b>hi</b>',
          contextRefs: [{ ref: 'doc-1', title: 'Runbook' }],
        }),
      ],
    });
    const messages = root.querySelectorAll('[part~="user-message"]');
    expect(messages.length).toBe(1);
    expect(messages[0]?.querySelector('.message-body')?.textContent).toBe('<b>hi</b>');
    expect(messages[0]?.querySelector('b')).toBe(null);
    expect(messages[0]?.querySelector('.context-ref')?.textContent).toBe('Runbook');
  });

  it("keeps a retried attempt's text in its turn, faded, until the retry's answer replaces it", async () => {
    const { root, emit } = await mountAgentChat();
    const user = createMessage({ messageId: 'u1', role: 'user', content: '/error' });
    const partial = createMessage({ messageId: 'a1', content: 'This first attempt breaks off', status: 'error' });
    await emit({ messages: [user, partial], discardedMessageIds: ['a1'] });
    const kept = root.querySelector('[part~="assistant-message"]') as HTMLElement;
    expect(kept.hasAttribute('data-discarded')).toBe(true);
    // No note of its own ("failed" would be wrong): the working row under it says the answer is retried.
    expect(kept.querySelector('.message-note')).toBe(null);
    expect(kept.querySelector('.message-body')?.textContent?.trim()).toBe('This first attempt breaks off');
    const retried = createMessage({ messageId: 'a2', content: 'Recovered', status: 'streaming' });
    await emit({ messages: [user, retried], discardedMessageIds: [] });
    const answers = root.querySelectorAll('[part~="assistant-message"]');
    expect(
      Array.from(answers, (answer) => [
        answer.hasAttribute('data-discarded'),
        answer.textContent?.includes('Recovered'),
      ]),
    ).toEqual([[false, true]]);
  });

  it("shows a failed run's error after its own turn, also once later turns follow", async () => {
    const { root, emit } = await mountAgentChat();
    const error = {
      code: 'MODEL_ERROR',
      message: 'The model could not answer this request.',
      reference: 'corr_7',
      retryable: false,
      source: 'run' as const,
      runId: 'run-1',
    };
    await emit({
      messages: [
        createMessage({ messageId: 'u1', role: 'user', content: '/fail', runId: 'run-1' }),
        createMessage({ messageId: 'r1', role: 'reasoning', content: 'This request will fail.', runId: 'run-1' }),
        createMessage({ messageId: 'u2', role: 'user', content: 'Hello again', runId: 'run-2' }),
        createMessage({ messageId: 'a2', content: 'Hi.', runId: 'run-2' }),
      ],
      runErrors: [error],
    });
    const rows = Array.from(root.querySelectorAll('.transcript-content > *'), (row) =>
      row.matches('[part~="run-error"]') ? `error: ${row.textContent?.replace(/\s+/g, ' ').trim()}` : row.tagName,
    );
    expect(rows).toEqual([
      'ARTICLE',
      'DIV',
      'error: This answer failed: The model could not answer this request. Reference: corr_7',
      'ARTICLE',
      'ARTICLE',
    ]);
  });

  it('shows hidden characters in user text as markers, keeping emoji sequences whole', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [
        createMessage({
          messageId: 'u1',
          role: 'user',
          content: 'hi\u{E0041}\u200B \u2764\uFE0F \u{1F469}\u200D\u{1F4BB}',
          contextRefs: [{ ref: 'doc-1', title: 'Run\u202Ebook' }],
        }),
      ],
    });
    const message = root.querySelector('[part~="user-message"]');
    expect(message?.querySelector('.message-body')?.textContent).toBe(
      'hi⟪U+E0041⟫⟪U+200B⟫ \u2764\uFE0F \u{1F469}\u200D\u{1F4BB}',
    );
    expect(message?.querySelector('.context-ref')?.textContent).toBe('Run⟪U+202E⟫book');
  });

  it('shows source cards only for http(s) URLs, opening in a new context with their host visible', async () => {
    const { root, emit } = await mountAgentChat((element) => {
      element.getReferences = () => [
        { title: 'Docs', url: 'https://docs.example.com/a?b=1' },
        { title: 'Evil', url: 'javascript:alert(1)' },
        { title: 'Data', url: 'data:text/html,<b>x</b>' },
        { title: 'Broken', url: 'not a url' },
        { title: 'Mail', url: 'mailto:a@example.com' },
        { title: 'Relative', url: '/docs' },
      ];
    });
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Answer' })] });
    const links = Array.from(root.querySelectorAll<HTMLAnchorElement>('.references a'));
    expect(
      links.map((link) => [
        link.getAttribute('href'),
        link.target,
        link.rel,
        link.textContent?.replace(/\s+/g, ' ').trim(),
      ]),
    ).toEqual([['https://docs.example.com/a?b=1', '_blank', 'noopener noreferrer', 'Docs docs.example.com']]);
  });

  it('renders a product renderer for its tool instead of the default card', async () => {
    const { root, emit } = await mountAgentChat((element) => {
      element.renderers = { weather: (toolCall) => html`<div class="weather">Weather: ${toolCall.status}</div>` };
    });
    await emit({
      toolCalls: [
        { toolCallId: 't1', name: 'weather', status: 'completed' },
        { toolCallId: 't2', name: 'other', status: 'running' },
      ],
    });
    expect(root.querySelector('.weather')?.textContent).toBe('Weather: completed');
    expect(Array.from(root.querySelectorAll('[part="tool-card"] .tool-title'), (title) => title.textContent)).toEqual([
      'other',
    ]);
  });

  it('joins consecutive tool calls into one box: the cards touch, their shared corners square', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      toolCalls: [
        { toolCallId: 't1', name: 'orders.lookup', title: 'Look up an order', status: 'completed' },
        { toolCallId: 't2', name: 'drafts.list', title: 'List drafts', status: 'completed' },
      ],
    });
    const [first, second] = Array.from(root.querySelectorAll<HTMLElement>('[part="tool-card"]'));
    const gap = second!.getBoundingClientRect().top - first!.getBoundingClientRect().bottom;
    expect(gap).toBe(-1);
    expect([getComputedStyle(first!).borderBottomLeftRadius, getComputedStyle(first!).borderTopLeftRadius]).toEqual([
      '0px',
      '12px',
    ]);
    expect([getComputedStyle(second!).borderTopLeftRadius, getComputedStyle(second!).borderBottomLeftRadius]).toEqual([
      '0px',
      '12px',
    ]);
  });

  it('adds a copy button to code blocks that copies the exact source', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [createMessage({ messageId: 'a1', content: 'Run:\n\n```sh\necho "a\u200Bb" <x>\n```\n' })],
    });
    const button = root.querySelector('pre.ac-code > button.ac-copy') as HTMLButtonElement;
    expect(button.textContent).toBe('Copy code');
    button.click();
    expect(writeText.mock.calls).toEqual([['echo "a\u200Bb" <x>']]);
    await Promise.resolve();
    await Promise.resolve();
    expect(button.textContent).toBe('Copied');
  });

  it('flags a code block whose source holds hidden characters, and none without', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [createMessage({ messageId: 'a1', content: '```\nrm\u{E0041} -rf\n```\n\n```\nls\n```\n' })],
    });
    const blocks = root.querySelectorAll('pre.ac-code');
    expect(blocks[0]?.querySelector('.ac-code-hidden')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
    expect(blocks[0]?.querySelector('code')?.textContent).toBe('rm⟪U+E0041⟫ -rf');
    expect(blocks[1]?.querySelector('.ac-code-hidden')).toBe(null);
  });

  it('marks stopped and failed answers', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [
        createMessage({ messageId: 'a1', content: 'Half', status: 'cancelled' }),
        createMessage({ messageId: 'a2', content: 'Part', status: 'error' }),
      ],
    });
    expect(
      Array.from(root.querySelectorAll('[part~="assistant-message"] .message-note'), (note) => note.textContent),
    ).toEqual(['Stopped', 'This answer did not finish.']);
  });

  it('marks the answer of a run whose server stopped (RUN_ABANDONED) as interrupted, with the Retry', async () => {
    const { root, emit } = await mountAgentChat();
    const abandoned = {
      code: 'RUN_ABANDONED',
      message: 'The server stopped while this answer was being written. You can try again.',
      reference: 'cor_1',
      retryable: true,
      source: 'run' as const,
      runId: 'run-2',
    };
    await emit({
      messages: [
        createMessage({ messageId: 'a1', content: 'Earlier', status: 'error', runId: 'run-1' }),
        createMessage({ messageId: 'a2', content: 'Half an ans', status: 'error', runId: 'run-2' }),
      ],
      error: abandoned,
      runErrors: [abandoned],
    });
    const notes = () =>
      Array.from(root.querySelectorAll('[part~="assistant-message"] .message-note'), (note) => note.textContent);
    expect(notes()).toEqual([
      'This answer did not finish.',
      'Interrupted: the server stopped before this answer finished.',
    ]);
    expect(root.querySelector('[part~="retry-button"]')?.textContent?.trim()).toBe('Retry');
    const failed = { ...abandoned, code: 'MODEL_ERROR' };
    await emit({ error: failed, runErrors: [failed] });
    expect(notes()).toEqual(['This answer did not finish.', 'This answer did not finish.']);
  });

  it('marks an answer cut at the length limit from the run state, and again from a reloaded snapshot in zh-CN', async () => {
    let seq = 0;
    const event = <T extends EventType>(type: T, data: EventDataMap[T]): EventEnvelope<T> => {
      seq += 1;
      return {
        v: 1,
        eventId: `evt_${seq}`,
        runId: 'run-1',
        sessionId: 's-1',
        seq,
        cursor: String(seq),
        type,
        timestamp: seq,
        data,
      };
    };
    const snapshot = reduceRunEvents(
      [
        event('TEXT_MESSAGE_START', { messageId: 'a1', role: 'assistant' }),
        event('TEXT_MESSAGE_CONTENT', { messageId: 'a1', delta: 'A whole answer.' }),
        event('TEXT_MESSAGE_END', { messageId: 'a1', finishReason: 'stop' }),
        event('TEXT_MESSAGE_START', { messageId: 'a2', role: 'assistant' }),
        event('TEXT_MESSAGE_CONTENT', { messageId: 'a2', delta: 'Half an ans' }),
        event('TEXT_MESSAGE_END', { messageId: 'a2', finishReason: 'length' }),
      ],
      createEmptyRunSnapshot('run-1', 's-1'),
    );
    const notesOf = (root: ShadowRoot) =>
      Array.from(root.querySelectorAll('[part~="assistant-message"]'), (message) => [
        message.querySelector('.message-body')?.textContent?.trim(),
        message.querySelector('.message-note')?.textContent ?? null,
      ]);
    const live = await mountAgentChat();
    await live.emit({ messages: snapshot.messages });
    expect(notesOf(live.root)).toEqual([
      ['A whole answer.', null],
      ['Half an ans', 'The answer was cut at the length limit.'],
    ]);

    document.body.replaceChildren();
    // A reload restores the run from the snapshot the server serves as JSON, with no client state left.
    const served = JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
    const reloaded = await mountAgentChat((element) => {
      element.locale = 'zh-CN';
    });
    await reloaded.emit({ messages: served.messages });
    expect(notesOf(reloaded.root)).toEqual([
      ['A whole answer.', null],
      ['Half an ans', '回答已达到长度上限，被截断。'],
    ]);
  });

  it('templates only the row that changed: a finished tool card is not rendered again while the next answer streams', async () => {
    const rendered: string[] = [];
    const { root, emit } = await mountAgentChat((element) => {
      element.renderers = {
        weather: (toolCall) => {
          rendered.push(toolCall.status);
          return html`<div class="weather">Weather: ${toolCall.status}</div>`;
        },
      };
    });
    const toolCall = { toolCallId: 't1', name: 'weather', status: 'completed' as const, parentMessageId: 'a1' };
    const first = createMessage({ messageId: 'a1', content: 'Looking' });
    await emit({
      messages: [first, createMessage({ messageId: 'a2', content: 'It', status: 'streaming' })],
      toolCalls: [toolCall],
    });
    const firstRow = root.querySelector('[part~="assistant-message"]');
    await emit({
      messages: [first, createMessage({ messageId: 'a2', content: 'It is sunny', status: 'streaming' })],
      toolCalls: [toolCall],
    });
    expect(rendered).toEqual(['completed']);
    expect(root.querySelector('[part~="assistant-message"]')).toBe(firstRow);
    await emit({
      messages: [first, createMessage({ messageId: 'a2', content: 'It is sunny' })],
      toolCalls: [{ ...toolCall, status: 'failed' }],
    });
    expect(rendered).toEqual(['completed', 'failed']);
    expect(root.querySelector('.weather')?.textContent).toBe('Weather: failed');
  });

  it('renders an approval again when its submitting flag changes, though the interrupt object is the same', async () => {
    const { root, emit } = await mountAgentChat();
    const interrupt = { id: 'i1', reason: 'confirmation' as const, state: 'open' as const, message: 'Go?' };
    await emit({ interrupts: [interrupt], submittingInterruptIds: [] });
    expect(root.querySelector('.approval-card [role="status"]')).toBe(null);
    await emit({ interrupts: [interrupt], submittingInterruptIds: ['i1'] });
    expect(root.querySelector('.approval-card [role="status"]')?.textContent).toBe('Submitting…');
  });

  it("says on the card of the tool call that ended its run on purpose that it stopped the run, with the tool's reason", async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [createMessage({ messageId: 'a1', content: 'Placing it' })],
      toolCalls: [
        { toolCallId: 't1', name: 'cart.read', status: 'completed', parentMessageId: 'a1' },
        { toolCallId: 't2', name: 'order.place', status: 'completed', parentMessageId: 'a1' },
      ],
      toolStops: { t2: 'The order is placed; nothing more to do.' },
    });
    expect(Array.from(root.querySelectorAll('.tool-status'), (status) => status.textContent)).toEqual([
      'Completed',
      'Stopped the run: The order is placed; nothing more to do.',
    ]);
  });
});
