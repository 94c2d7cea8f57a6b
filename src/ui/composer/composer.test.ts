import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { AgentChatSendDetail } from '../agent-chat/agent-chat-events.ts';
import { mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

async function typeInto(textarea: HTMLTextAreaElement, text: string): Promise<void> {
  textarea.focus();
  await userEvent.keyboard(text);
}

describe('composer', () => {
  it('sends on Enter, clears after send resolves, returns focus and emits agent-chat-send', async () => {
    const { element, client, root } = await mountAgentChat();
    const sent: AgentChatSendDetail[] = [];
    element.addEventListener('agent-chat-send', (event) => sent.push(event.detail));
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    await typeInto(textarea, 'Hello{Enter}');
    await element.updateComplete;
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'Hello', options: undefined },
    ]);
    expect(sent).toEqual([{ text: 'Hello', contextRefs: [] }]);
    await element.updateComplete;
    expect(textarea.value).toBe('');
    expect(root.activeElement).toBe(textarea);
  });

  it('breaks the line on Shift+Enter without sending', async () => {
    const { client, root } = await mountAgentChat();
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    await typeInto(textarea, 'one{Shift>}{Enter}{/Shift}two');
    expect(textarea.value).toBe('one\ntwo');
    expect(client.calls.some((call) => call.name === 'send')).toBe(false);
  });

  it('never sends on an Enter that belongs to IME composition', async () => {
    const { client, root } = await mountAgentChat();
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    await typeInto(textarea, 'nihao');
    const composing = new KeyboardEvent('keydown', {
      key: 'Enter',
      isComposing: true,
      bubbles: true,
      cancelable: true,
    });
    const legacy = new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true, cancelable: true });
    textarea.dispatchEvent(composing);
    textarea.dispatchEvent(legacy);
    expect(composing.defaultPrevented).toBe(false);
    expect(legacy.defaultPrevented).toBe(false);
    expect(client.calls.some((call) => call.name === 'send')).toBe(false);
  });

  it('keeps the text when the send fails, and restores a failed pending send', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    client.nextSend = () => Promise.reject(new Error('network'));
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    await typeInto(textarea, 'Keep me{Enter}');
    await element.updateComplete;
    await element.updateComplete;
    expect(textarea.value).toBe('Keep me');
    textarea.value = '';
    textarea.dispatchEvent(new Event('input'));
    await emit({ pendingSend: { clientMessageId: 'c1', text: 'From the client', status: 'failed' } });
    expect(textarea.value).toBe('From the client');
  });

  it('shows Stop while a run is active and calls cancel()', async () => {
    const { client, root, emit } = await mountAgentChat();
    expect(root.querySelector('[part="stop-button"]')).toBe(null);
    await emit({ run: { runId: 'run-1', status: 'running', lastSeq: 3 } });
    (root.querySelector('[part="stop-button"]') as HTMLButtonElement).click();
    expect(client.calls.at(-1)).toEqual({ name: 'cancel' });
    expect(root.querySelector('[part="send-button"]')).toBe(null);
    await emit({ run: { runId: 'run-1', status: 'cancelled', lastSeq: 4 } });
    expect(root.querySelector('[part="stop-button"]')).toBe(null);
  });

  it('shows the input limit as it nears and blocks sending over it', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    await emit({
      bootstrap: { limits: { maxInputChars: 10 }, capabilities: { inputs: { duringRun: false } } } as never,
    });
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    await typeInto(textarea, '1234567');
    await element.updateComplete;
    expect(root.querySelector('.limit')).toBe(null);
    await userEvent.keyboard('8');
    await element.updateComplete;
    expect(root.querySelector('.limit')?.textContent?.trim()).toBe('8 / 10 characters');
    expect(textarea.getAttribute('aria-describedby')).toBe('composer-limit');
    await userEvent.keyboard('901{Enter}');
    await element.updateComplete;
    expect(root.querySelector('.limit')?.textContent?.trim()).toBe('11 / 10 characters — too long to send');
    expect(textarea.getAttribute('aria-invalid')).toBe('true');
    expect((root.querySelector('[part="send-button"]') as HTMLButtonElement).disabled).toBe(true);
    expect(client.calls.some((call) => call.name === 'send')).toBe(false);
  });

  it('sends the references the product picker returned as contextRefs', async () => {
    const { element, client, root } = await mountAgentChat((chat) => {
      chat.selectAttachments = () => Promise.resolve([{ ref: 'doc-1', title: 'Runbook' }]);
    });
    (root.querySelector('[part="attach-button"]') as HTMLButtonElement).click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await element.updateComplete;
    expect(root.querySelector('.attachment')?.textContent).toContain('Runbook');
    await typeInto(root.querySelector('textarea') as HTMLTextAreaElement, 'Use it{Enter}');
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'Use it', options: { contextRefs: [{ ref: 'doc-1', title: 'Runbook' }] } },
    ]);
  });
});
