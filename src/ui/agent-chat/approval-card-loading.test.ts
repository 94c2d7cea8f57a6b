import { afterEach, describe, expect, it } from 'vitest';
import type { ClientState } from '../../core/index.ts';
import '../../define.ts';
import { provideApprovalCard, type ApprovalCardModule } from '../../approval-card-on-demand.ts';
import { createMessage, nextFrame } from '../test-support/mount-agent-chat.ts';
import { FakeAgentClient } from '../test-support/fake-agent-client.ts';

afterEach(() => {
  document.body.replaceChildren();
});

const approval: Partial<ClientState> = {
  toolCalls: [{ toolCallId: 't1', name: 'drafts.delete', args: { id: 'd1' }, status: 'awaiting_approval' }],
  interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'open' }],
};

/** A widget whose approval card has not loaded yet (unlike `mountAgentChat`'s, which preloads it). */
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

describe('the approval card, a file of its own', () => {
  it('loads on the first approval, says so meanwhile, and offers Retry when the load fails', async () => {
    const loads: Array<{ resolve: (module: ApprovalCardModule) => void; reject: (error: Error) => void }> = [];
    provideApprovalCard(() => new Promise((resolve, reject) => loads.push({ resolve, reject })));
    const { element, root, emit } = await mountWithoutCard();

    await emit({ messages: [createMessage({ messageId: 'a1', content: 'Hello.' })] });
    expect(loads).toHaveLength(0);

    await emit(approval);
    expect(loads).toHaveLength(1);
    expect(root.querySelector('[part="approval-card"]')?.textContent?.trim()).toBe('Loading the approval…');
    expect(root.querySelector('[part="allow-button"]')).toBeNull();

    loads[0]?.reject(new Error('agent-chat.approval.js did not load'));
    await new Promise((resolve) => setTimeout(resolve));
    await element.updateComplete;
    const failed = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(failed.textContent).toContain('The approval could not be shown.');

    (failed.querySelector('button') as HTMLButtonElement).click();
    await element.updateComplete;
    expect(loads).toHaveLength(2);
    loads[1]?.resolve(await import('../approval-card/approval-card.ts'));
    await new Promise((resolve) => setTimeout(resolve));
    await element.updateComplete;
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('[part="allow-button"]')?.textContent?.trim()).toBe('Allow');
    // Its styles came with it: the open card has its warning border.
    expect(getComputedStyle(card).borderTopWidth).toBe('2px');
  });
});
