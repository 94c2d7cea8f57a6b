import { afterEach, describe, expect, it } from 'vitest';
import type { ClientState, Proposal, SnapshotInterrupt, SnapshotToolCall } from '../../core/index.ts';
import { mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

const PROPOSAL: Proposal = {
  summary: 'Update your profile with the new display name and bio?',
  fields: [
    { name: 'Display name', before: 'Demo user', after: 'Ada <b>Lovelace</b>' },
    { name: 'Avatar', after: 'tea.png' },
  ],
  diff: [
    { change: 'removed', text: 'Coffee drinker.' },
    { change: 'added', text: 'Tea\u202E drinker.' },
    { change: 'unchanged', text: 'Writes about agents.' },
  ],
  apply: { tool: 'profile.update', arguments: { displayName: 'Ada', bio: 'Tea drinker.' } },
};

function proposalState(
  interrupt: Partial<SnapshotInterrupt> = {},
  toolCall: Partial<SnapshotToolCall> = {},
): Partial<ClientState> {
  return {
    toolCalls: [
      {
        toolCallId: 't1',
        name: 'profile.propose',
        title: 'Propose a profile change',
        status: 'awaiting_approval',
        ...toolCall,
      },
    ],
    interrupts: [
      {
        id: 'i1',
        reason: 'proposal',
        toolCallId: 't1',
        message: PROPOSAL.summary,
        proposal: PROPOSAL,
        state: 'open',
        ...interrupt,
      },
    ],
  };
}

const summaryOf = (root: ShadowRoot): string | undefined =>
  root.querySelector('[part="tool-card"] summary')?.textContent?.replace(/\s+/g, ' ').trim();

describe('proposal card', () => {
  it('shows the summary, the fields and the marked diff lines as plain text, and answers Apply or Dismiss', async () => {
    const { client, root, emit } = await mountAgentChat();
    await emit(proposalState());
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('h3')?.textContent).toBe('Proposed: Propose a profile change');
    expect(card.querySelector('.approval-message')?.textContent).toBe(PROPOSAL.summary);
    const values = Array.from(card.querySelectorAll<HTMLElement>('.approval-value'));
    expect(values.map((value) => [value.textContent, value.dataset.change ?? null])).toEqual([
      ['Display name: Demo user → Ada <b>Lovelace</b>', null],
      ['Avatar: tea.png', null],
      ['- Coffee drinker.', 'removed'],
      ['+ Tea⟪U+202E⟫ drinker.', 'added'],
      ['  Writes about agents.', 'unchanged'],
    ]);
    expect(card.querySelector('b')).toBe(null);
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
    // What Apply runs, exactly as the digest binds it, is behind Details.
    const details = card.querySelector('.approval-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('.approval-tool')?.textContent).toBe('Tool: profile.update');
    expect(details.querySelector('.approval-json')?.textContent).toBe(
      JSON.stringify(PROPOSAL.apply.arguments, null, 2),
    );
    const [added, removed] = [values[3], values[2]].map((value) => getComputedStyle(value as Element).color);
    expect(added).not.toBe(removed);
    const buttons = Array.from(card.querySelectorAll<HTMLButtonElement>('button'));
    expect(buttons.map((button) => [button.getAttribute('part'), button.textContent?.trim()])).toEqual([
      ['allow-button', 'Apply'],
      ['deny-button', 'Dismiss'],
    ]);
    buttons[0]?.click();
    buttons[1]?.click();
    expect(client.calls.filter((call) => call.name === 'approve')).toEqual([
      { name: 'approve', interruptId: 'i1', decision: 'allow' },
      { name: 'approve', interruptId: 'i1', decision: 'deny' },
    ]);
  });

  it("warns of hidden characters in the write's arguments that the preview does not show", async () => {
    const { root, emit } = await mountAgentChat();
    const proposal: Proposal = {
      summary: 'Rename the city?',
      fields: [{ name: 'City', before: 'Porto', after: 'Lisbon' }],
      apply: { tool: 'profile.update', arguments: { city: 'Lisbon', bio: 'x\u202Ey' } },
    };
    await emit(proposalState({ message: proposal.summary, proposal }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('.approval-json')?.textContent).toContain('"bio": "x⟪U+202E⟫y"');
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
  });

  it('once answered, the tool line says Applied (with the result behind it), Dismissed or Expired', async () => {
    const { root, emit } = await mountAgentChat();
    const result = {
      messageId: 'm1',
      content: 'The user applied the proposal: profile.update returned {"updated":true}',
    };
    await emit(proposalState({ state: 'resolved', decision: 'allow' }, { status: 'completed', result }));
    expect(root.querySelector('[part="approval-card"]')).toBe(null);
    expect(summaryOf(root)).toBe('Propose a profile change Applied');
    expect(root.querySelector('[part="tool-card"] .tool-text:last-of-type')?.textContent).toBe(result.content);
    await emit(proposalState({ state: 'resolved', decision: 'allow' }, { status: 'denied' }));
    expect(summaryOf(root)).toBe('Propose a profile change Denied');
    await emit(proposalState({ state: 'resolved', decision: 'deny' }, { status: 'denied' }));
    expect(summaryOf(root)).toBe('Propose a profile change Dismissed');
    await emit(proposalState({ state: 'expired', decision: 'deny' }, { status: 'denied' }));
    expect(summaryOf(root)).toBe('Propose a profile change Expired without an answer');
  });
});
