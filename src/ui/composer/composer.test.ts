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
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([{ name: 'send', text: 'Hello', options: {} }]);
    expect(sent).toEqual([{ text: 'Hello', contextRefs: [], attachments: [] }]);
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

  it('has one icon button: Send (↑), or Stop (■) while a run is active, which calls cancel()', async () => {
    const { client, root, emit } = await mountAgentChat();
    const button = () => root.querySelector('.composer-row > button:last-child') as HTMLButtonElement;
    expect([button().getAttribute('part'), button().getAttribute('aria-label')]).toEqual(['send-button', 'Send']);
    expect(button().querySelector('svg[aria-hidden="true"] path')).not.toBe(null);
    await emit({ run: { runId: 'run-1', status: 'running', lastSeq: 3 } });
    expect([button().getAttribute('part'), button().getAttribute('aria-label')]).toEqual(['stop-button', 'Stop']);
    expect(root.querySelector('[part="send-button"]')).toBe(null);
    button().click();
    expect(client.calls.at(-1)).toEqual({ name: 'cancel' });
    await emit({ isStopping: true });
    expect([button().getAttribute('aria-label'), button().disabled]).toEqual(['Stopping…', true]);
    await emit({ run: { runId: 'run-1', status: 'cancelled', lastSeq: 4 }, isStopping: false });
    expect(root.querySelector('[part="stop-button"]')).toBe(null);
  });

  it('stops the answer on Escape while Stop is offered, and lets Escape through otherwise', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    const textarea = root.querySelector('textarea') as HTMLTextAreaElement;
    const escapes: KeyboardEvent[] = [];
    element.addEventListener('keydown', (event) => escapes.push(event));
    await typeInto(textarea, '{Escape}');
    expect(client.calls.some((call) => call.name === 'cancel')).toBe(false);
    expect(escapes.map((event) => event.key)).toEqual(['Escape']);
    await emit({ run: { runId: 'run-1', status: 'running', lastSeq: 3 } });
    await typeInto(textarea, '{Escape}');
    expect(client.calls.at(-1)).toEqual({ name: 'cancel' });
    // Handled: it does not reach the launcher, which would close its panel on it.
    expect(escapes).toHaveLength(1);
    await emit({ isStopping: true });
    await typeInto(textarea, '{Escape}');
    expect(client.calls.filter((call) => call.name === 'cancel')).toHaveLength(1);
  });

  it('offers Send in place of Stop while text is typed during a run that takes inputs', async () => {
    const { element, root, emit } = await mountAgentChat();
    await emit({
      bootstrap: {
        agent: { name: 'Assistant' },
        limits: { maxInputChars: 100 },
        capabilities: { inputs: { duringRun: true } },
      } as never,
      run: { runId: 'run-1', status: 'running', lastSeq: 3 },
    });
    expect(root.querySelector('[part="stop-button"]')).not.toBe(null);
    await typeInto(root.querySelector('textarea') as HTMLTextAreaElement, 'also this');
    await element.updateComplete;
    expect(root.querySelector('[part="stop-button"]')).toBe(null);
    expect((root.querySelector('[part="send-button"]') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the input limit as it nears and blocks sending over it', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    await emit({
      bootstrap: {
        agent: { name: 'Assistant' },
        limits: { maxInputChars: 10 },
        capabilities: { inputs: { duringRun: false } },
      } as never,
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
    // The button arrives with the attachment tray's file.
    await expect.poll(() => root.querySelector('[part="attach-button"]')).not.toBeNull();
    (root.querySelector('[part="attach-button"]') as HTMLButtonElement).click();
    await expect.poll(() => root.querySelector('.attachment')?.textContent).toContain('Runbook');
    await element.updateComplete;
    await typeInto(root.querySelector('textarea') as HTMLTextAreaElement, 'Use it{Enter}');
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'Use it', options: { contextRefs: [{ ref: 'doc-1', title: 'Runbook' }] } },
    ]);
  });
});
