import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootstrapResponse, FocusContext } from '../../core/index.ts';
import '../../locales/zh-cn.ts';
import { createMessage, mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const BOOTSTRAP = {
  agent: { agentId: 'agt_1', versionId: 'agv_1', name: 'Acme Support' },
  models: [
    { modelId: 'small', label: 'Small', available: true },
    { modelId: 'scripted', label: 'Scripted', default: true, available: true, reasoningOptions: ['low', 'high'] },
  ],
  limits: { maxInputChars: 1000 },
  capabilities: { inputs: { duringRun: false } },
} as BootstrapResponse;

const ORDER: FocusContext = { title: 'Order A-1001', text: 'Status: shipped on 28 Nov' };

describe('<agent-chat> page context', () => {
  it("sends what getContext gives at each send as the message's focus, with its references", async () => {
    const contexts: Array<FocusContext | null> = [ORDER, null];
    const { element, client } = await mountAgentChat((chat) => {
      chat.getContext = () => Promise.resolve(contexts.shift() ?? null);
    });
    await element.send('Where is it?');
    await element.send('And now?');
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'Where is it?', options: { focus: ORDER } },
      { name: 'send', text: 'And now?', options: {} },
    ]);
  });

  it('sends the context setContext fixed with every next send until changed, and getContext wins over it', async () => {
    const { element, client } = await mountAgentChat();
    element.context = ORDER;
    await element.send('One');
    await element.send('Two');
    element.context = null;
    await element.send('Three');
    element.context = ORDER;
    element.getContext = () => Promise.resolve({ text: 'The selection' });
    await element.send('Four');
    expect(
      client.calls.filter((call) => call.name === 'send').map((call) => call.name === 'send' && call.options),
    ).toEqual([{ focus: ORDER }, { focus: ORDER }, {}, { focus: { text: 'The selection' } }]);
  });

  it('sends without context when getContext throws or gives no text, and the status line says so until the next send', async () => {
    const answers: Array<() => Promise<FocusContext | null>> = [
      () => Promise.reject(new Error('page broke')),
      () => Promise.resolve({ title: 'No text' } as FocusContext),
      () => Promise.resolve(ORDER),
    ];
    const { element, client, root } = await mountAgentChat((chat) => {
      chat.getContext = () => (answers.shift() as () => Promise<FocusContext | null>)();
    });
    const status = root.querySelector('[part="status"]') as HTMLElement;
    await element.send('First');
    await element.updateComplete;
    expect(status.textContent).toBe('Sent without the page context: it could not be read.');
    await element.send('Second');
    await element.updateComplete;
    expect(status.textContent).toBe('Sent without the page context: it could not be read.');
    await element.send('Third');
    await element.updateComplete;
    expect(status.textContent).toBe('');
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'First', options: {} },
      { name: 'send', text: 'Second', options: {} },
      { name: 'send', text: 'Third', options: { focus: ORDER } },
    ]);
  });

  it('waits 5 s for getContext, then sends without it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { element, client, root } = await mountAgentChat((chat) => {
      chat.getContext = () => new Promise<FocusContext>(() => undefined);
    });
    const sent = element.send('Still there?');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await sent;
    await element.updateComplete;
    expect(client.calls.filter((call) => call.name === 'send')).toEqual([
      { name: 'send', text: 'Still there?', options: {} },
    ]);
    expect(root.querySelector('[part="status"]')?.textContent).toBe(
      'Sent without the page context: it could not be read.',
    );
  });

  it('shows a "context attached" chip with the title and size on the turn that carried context, in the locale', async () => {
    const { element, root, emit } = await mountAgentChat();
    await emit({
      messages: [
        createMessage({
          messageId: 'u1',
          role: 'user',
          content: 'Where?',
          focus: { title: 'Order A-1001', chars: 1234 },
        }),
        createMessage({
          messageId: 'u2',
          role: 'user',
          content: 'Here?',
          focus: { chars: 80 },
          contextRefs: [{ ref: 'doc:1', title: 'Runbook' }],
        }),
        createMessage({ messageId: 'u3', role: 'user', content: 'Plain' }),
      ],
    });
    const chipsOf = (index: number): string[] =>
      Array.from(root.querySelectorAll('[part~="user-message"]')[index]?.querySelectorAll('.chip') ?? []).map(
        (chip) => chip.textContent?.trim() ?? '',
      );
    expect(chipsOf(0)).toEqual(['Context: Order A-1001 · 1234 characters']);
    expect(chipsOf(1)).toEqual(['Context: this page · 80 characters', 'Runbook']);
    expect(chipsOf(2)).toEqual([]);
    element.locale = 'zh-CN';
    await element.updateComplete;
    expect(chipsOf(1)[0]).toBe('上下文：当前页面 · 80 个字符');
  });
});

describe('<agent-chat> effort picker', () => {
  it('is off by default, and with effortPicker offers the default model’s levels and sends the picked one', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    await emit({ bootstrap: BOOTSTRAP });
    expect(root.querySelector('[part="effort-select"]')).toBe(null);
    element.effortPicker = true;
    await element.updateComplete;
    const select = root.querySelector('[part="effort-select"]') as HTMLSelectElement;
    expect(select.getAttribute('aria-label')).toBe('Effort');
    expect(Array.from(select.options).map((option) => [option.value, option.text])).toEqual([
      ['', 'Effort'],
      ['low', 'Low'],
      ['high', 'High'],
    ]);
    await element.send('Default');
    select.value = 'high';
    select.dispatchEvent(new Event('change'));
    await element.send('Think hard');
    expect(
      client.calls.filter((call) => call.name === 'send').map((call) => call.name === 'send' && call.options),
    ).toEqual([{}, { reasoningEffort: 'high' }]);
  });

  it('is not shown when the model offers no levels', async () => {
    const { root, emit } = await mountAgentChat((chat) => {
      chat.effortPicker = true;
    });
    await emit({ bootstrap: { ...BOOTSTRAP, models: [{ modelId: 'plain', label: 'Plain', available: true }] } });
    expect(root.querySelector('[part="effort-select"]')).toBe(null);
  });
});
