import { afterEach, describe, expect, it } from 'vitest';
import type { ClientState } from '../../core/index.ts';
import '../../define.ts';
import type { ToolCardsModule } from '../../parts/tool-cards/tool-cards-global.ts';
import { provideToolCards } from '../../parts/tool-cards/tool-cards-on-demand.ts';
import { createMessage, nextFrame } from '../test-support/mount-agent-chat.ts';
import { FakeAgentClient } from '../test-support/fake-agent-client.ts';

afterEach(() => {
  document.body.replaceChildren();
});

const lookup = { toolCallId: 't0', name: 'drafts.list', title: 'List drafts', status: 'completed' } as const;
const approval: Partial<ClientState> = {
  toolCalls: [lookup, { toolCallId: 't1', name: 'drafts.delete', args: { id: 'd1' }, status: 'awaiting_approval' }],
  interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'open' }],
};

/** A widget whose tool cards have not loaded yet (unlike `mountAgentChat`'s, which preloads them). */
async function mountWithoutCard() {
  const client = new FakeAgentClient();
  const element = document.createElement('agent-chat');
  element.locale = 'en';
  element.client = client;
  document.body.append(element);
  await element.updateComplete;
  const root = element.shadowRoot as ShadowRoot;
  const emit = async (patch: Partial<ClientState>) => {
    client.emit(patch);
    await element.updateComplete;
    await nextFrame();
  };
  return { element, root, emit };
}

describe('the tool cards, a file of their own', () => {
  it('load on the first tool call, show its title meanwhile (its status comes with the cards), and offer Retry on an approval when the load fails', async () => {
    const loads: Array<{ resolve: (module: ToolCardsModule) => void; reject: (error: Error) => void }> = [];
    provideToolCards(() => new Promise((resolve, reject) => loads.push({ resolve, reject })));
    const { element, root, emit } = await mountWithoutCard();

    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Hello.' })] });
    expect(loads).toHaveLength(0);

    await emit({ toolCalls: [lookup] });
    expect(loads).toHaveLength(1);
    const toolRow = () => root.querySelector('[part="tool-card"]') as HTMLElement;
    expect(toolRow().textContent?.trim()).toBe('List drafts');
    expect(toolRow().querySelector('details')).toBeNull();

    await emit(approval);
    expect(loads).toHaveLength(1);
    expect(root.querySelector('[part="approval-card"]')?.textContent?.trim()).toBe('Loading the approval…');
    expect(root.querySelector('[part="allow-button"]')).toBeNull();

    loads[0]?.reject(new Error('agent-chat.tool-cards.js did not load'));
    await expect
      .poll(() => root.querySelector('[part="approval-card"]')?.textContent)
      .toContain('The approval could not be shown.');
    const failed = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(toolRow().textContent?.trim()).toBe('List drafts');

    (failed.querySelector('button') as HTMLButtonElement).click();
    await element.updateComplete;
    expect(loads).toHaveLength(2);
    loads[1]?.resolve(await import('../tool-cards.ts'));
    await expect
      .poll(() => root.querySelector('[part="approval-card"] [part="allow-button"]')?.textContent?.trim())
      .toBe('Allow');
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    // Their styles came with them: the open card has its warning border, the tool card its box.
    expect(getComputedStyle(card).borderTopWidth).toBe('2px');
    expect(toolRow().querySelector('summary')?.textContent).toMatch(/List drafts\s*Completed/);
    expect(getComputedStyle(toolRow()).borderTopWidth).toBe('1px');
  });
});
