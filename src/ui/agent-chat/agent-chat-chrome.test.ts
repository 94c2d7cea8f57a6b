import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootstrapResponse } from '../../core/index.ts';
import type { AgentChatSendDetail } from './agent-chat-events.ts';
import { createMessage, mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const BOOTSTRAP = {
  agent: { agentId: 'agt_1', versionId: 'agv_1', name: 'Acme Support' },
  limits: { maxInputChars: 1000 },
  capabilities: { inputs: { duringRun: false } },
} as BootstrapResponse;

describe('<agent-chat> header', () => {
  it("titles itself with the agent's name from bootstrap, or headerTitle, with the avatar when given", async () => {
    const { element, root, emit } = await mountAgentChat();
    await emit({ bootstrap: BOOTSTRAP });
    const header = root.querySelector('[part="header"]') as HTMLElement;
    expect(header.querySelector('h2')?.textContent).toBe('Acme Support');
    expect(header.querySelector('[part="avatar"]')).toBe(null);
    element.headerTitle = 'Orders help';
    element.avatarUrl = '/avatar.svg';
    await element.updateComplete;
    expect(header.querySelector('h2')?.textContent).toBe('Orders help');
    expect([
      header.querySelector('img')?.getAttribute('src'),
      header.querySelector('img')?.getAttribute('alt'),
    ]).toEqual(['/avatar.svg', '']);
  });

  it("shows the agent's avatar from bootstrap unless the page sets its own", async () => {
    const { element, root, emit } = await mountAgentChat();
    await emit({ bootstrap: { ...BOOTSTRAP, agent: { ...BOOTSTRAP.agent, avatarUrl: '/agent.png' } } });
    const avatar = () => root.querySelector('[part="avatar"]')?.getAttribute('src');
    expect(avatar()).toBe('/agent.png');
    element.avatarUrl = '/product.svg';
    await element.updateComplete;
    expect(avatar()).toBe('/product.svg');
  });

  it('starts a new conversation from its button, then focuses the composer; ✕ only where onClose is set', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    const newButton = () => root.querySelector('[part="new-conversation-button"]') as HTMLButtonElement;
    expect(newButton().disabled).toBe(true);
    await emit({ sessionId: 'ses_1', messages: [createMessage({ messageId: 'u1', role: 'user', content: 'Hi' })] });
    expect(newButton().disabled).toBe(false);
    expect(newButton().getAttribute('aria-label')).toBe('New conversation');
    newButton().click();
    await element.updateComplete;
    expect(client.calls.at(-1)).toEqual({ name: 'newSession' });
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    expect(root.querySelector('[part="close-button"]')).toBe(null);
    const onClose = vi.fn();
    element.onClose = onClose;
    await element.updateComplete;
    (root.querySelector('[part="close-button"]') as HTMLButtonElement).click();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('<agent-chat> empty state', () => {
  it('greets and sends a suggestion when pressed, then gives way to the transcript', async () => {
    const { element, client, root, emit } = await mountAgentChat((chat) => {
      chat.suggestions = ['Where is my order?', 'Return an item'];
    });
    const sent: AgentChatSendDetail[] = [];
    element.addEventListener('agent-chat-send', (event) => sent.push(event.detail));
    const empty = root.querySelector('[part="empty-state"]') as HTMLElement;
    expect(empty.querySelector('.greeting')?.textContent).toBe('How can I help you today?');
    const chips = Array.from(empty.querySelectorAll<HTMLButtonElement>('[part="suggestion"]'));
    expect(chips.map((chip) => chip.textContent)).toEqual(['Where is my order?', 'Return an item']);
    chips[0]?.click();
    await element.updateComplete;
    expect(sent).toEqual([{ text: 'Where is my order?', contextRefs: [], attachments: [] }]);
    expect(client.calls.find((call) => call.name === 'send')).toEqual({
      name: 'send',
      text: 'Where is my order?',
      options: {},
    });
    element.greeting = 'Hello from Acme';
    await emit({ pendingSend: { clientMessageId: 'c1', text: 'Where is my order?', status: 'sending' } });
    expect(root.querySelector('[part="empty-state"]')).toBe(null);
  });

  it('is what send() does too: the handle sends text as if typed', async () => {
    const { element, client } = await mountAgentChat();
    await element.send('From the host page');
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'From the host page', options: {} },
    ]);
  });
});

describe('<agent-chat> answer actions', () => {
  it("copies a finished answer's Markdown and says so; a streaming answer has no actions", async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const { root, emit } = await mountAgentChat();
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Half **an', status: 'streaming' })] });
    expect(root.querySelector('[part~="assistant-message"] .message-actions')).toBe(null);
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Half **an answer**.' })] });
    const button = root.querySelector('.message-actions button') as HTMLButtonElement;
    expect(button.getAttribute('aria-label')).toBe('Copy answer');
    button.click();
    await vi.waitFor(() => expect(button.getAttribute('aria-label')).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith('Half **an answer**.');
  });

  it('offers Copy once per turn, on its last answer, not under the lead-in before a tool call', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({
      messages: [
        createMessage({ messageId: 'a1', content: 'Let me look that up.', runId: 'run-1' }),
        createMessage({ messageId: 'a2', content: 'Order A-1 shipped.', runId: 'run-1' }),
      ],
    });
    const answers = root.querySelectorAll('[part~="assistant-message"]');
    expect(Array.from(answers, (answer) => answer.querySelector('.message-actions') !== null)).toEqual([false, true]);
  });

  it('votes on the answer, shows the kept vote pressed and sends a comment with it', async () => {
    const { root, emit, client } = await mountAgentChat();
    const answer = createMessage({ messageId: 'a1', content: 'Shipped.', runId: 'run-1' });
    await emit({ messages: [answer] });
    const thumb = (rating: string) => root.querySelector(`[data-rating="${rating}"]`) as HTMLButtonElement;
    expect([thumb('up').getAttribute('aria-label'), thumb('down').getAttribute('aria-label')]).toEqual([
      'Good answer',
      'Bad answer',
    ]);
    expect(root.querySelector('.feedback-comment')).toBe(null);
    thumb('down').click();
    expect(client.calls.at(-1)).toEqual({
      name: 'sendFeedback',
      runId: 'run-1',
      messageId: 'a1',
      feedback: { rating: 'down' },
    });
    await emit({ messages: [{ ...answer, feedback: { rating: 'down' } }] });
    expect([thumb('up').getAttribute('aria-pressed'), thumb('down').getAttribute('aria-pressed')]).toEqual([
      'false',
      'true',
    ]);
    const details = root.querySelector('.feedback-comment') as HTMLDetailsElement;
    details.open = true;
    (details.querySelector('textarea') as HTMLTextAreaElement).value = '  Wrong order  ';
    (details.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    expect(client.calls.at(-1)).toEqual({
      name: 'sendFeedback',
      runId: 'run-1',
      messageId: 'a1',
      feedback: { rating: 'down', comment: 'Wrong order' },
    });
    expect(details.open).toBe(false);
  });

  it('offers Copy but no votes with feedback off', async () => {
    const { root, emit } = await mountAgentChat((element) => {
      element.feedback = false;
    });
    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Shipped.' })] });
    expect(root.querySelector('.message-actions button')?.getAttribute('aria-label')).toBe('Copy answer');
    expect(root.querySelector('[data-rating]')).toBe(null);
  });
});
