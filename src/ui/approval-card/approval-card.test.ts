import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { ClientState, SnapshotInterrupt } from '../../core/index.ts';
import type { AgentChatApproveDetail } from '../agent-chat/agent-chat-events.ts';
import { mountAgentChat } from '../test-support/mount-agent-chat.ts';
import { APPROVAL_VALUE_PREVIEW_CHARS } from './approval-card.ts';

afterEach(() => {
  document.body.replaceChildren();
});

function approvalState(
  interrupt: Partial<SnapshotInterrupt>,
  args: unknown = { path: '/srv/release', recursive: true },
): Partial<ClientState> {
  return {
    toolCalls: [{ toolCallId: 't1', name: 'delete_files', args, status: 'awaiting_approval' }],
    interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'open', ...interrupt }],
  };
}

describe('approval card', () => {
  it('shows the complete arguments, the expiry and calls approve() on Allow and Deny', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    const events: AgentChatApproveDetail[] = [];
    element.addEventListener('agent-chat-approve', (event) => events.push(event.detail));
    await emit(approvalState({ expiresAt: '2030-01-01T12:30:00.000Z' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('h3')?.textContent).toBe('Approval needed: delete_files');
    expect(Array.from(card.querySelectorAll('.approval-value'), (pre) => pre.textContent)).toEqual([
      '"path": "/srv/release"',
      '"recursive": true',
    ]);
    expect(card.querySelector('time')?.getAttribute('datetime')).toBe('2030-01-01T12:30:00.000Z');
    (card.querySelector('[part="allow-button"]') as HTMLButtonElement).click();
    (card.querySelector('[part="deny-button"]') as HTMLButtonElement).click();
    expect(client.calls.filter((call) => call.name === 'approve')).toEqual([
      { name: 'approve', interruptId: 'i1', decision: 'allow' },
      { name: 'approve', interruptId: 'i1', decision: 'deny' },
    ]);
    expect(events).toEqual([
      { interruptId: 'i1', decision: 'allow' },
      { interruptId: 'i1', decision: 'deny' },
    ]);
  });

  it('disables both buttons while the decision is submitted', async () => {
    const { root, emit } = await mountAgentChat();
    await emit({ ...approvalState({}), submittingInterruptIds: ['i1'] });
    const buttons = Array.from(root.querySelectorAll<HTMLButtonElement>('[part="approval-card"] button'));
    expect(buttons.map((button) => [button.textContent?.trim(), button.disabled])).toEqual([
      ['Allow', true],
      ['Deny', true],
    ]);
    expect(root.querySelector('[part="approval-card"] [role="status"]')?.textContent).toBe('Submitting…');
  });

  const outcomes: Array<[Partial<SnapshotInterrupt>, string]> = [
    [{ state: 'resolved', decision: 'allow' }, 'Allowed'],
    [{ state: 'resolved', decision: 'deny' }, 'Denied'],
    [{ state: 'expired' }, 'Expired without an answer'],
    [{ state: 'cancelled' }, 'Cancelled'],
  ];
  for (const [interrupt, text] of outcomes) {
    it(`shows "${text}" without buttons once ${interrupt.state}${interrupt.decision ? ` (${interrupt.decision})` : ''}`, async () => {
      const { root, emit } = await mountAgentChat();
      await emit(approvalState(interrupt));
      const card = root.querySelector('[part="approval-card"]') as HTMLElement;
      expect(card.dataset.state).toBe(interrupt.state);
      expect(card.querySelector('.approval-outcome')?.textContent).toBe(text);
      expect(card.querySelectorAll('button').length).toBe(0);
      expect(card.querySelector('.approval-value')?.textContent).toBe('"path": "/srv/release"');
    });
  }

  it('folds a padded value behind its key and length beside the buttons, the whole value one click away', async () => {
    const { root, emit } = await mountAgentChat();
    const command = `echo hi${' '.repeat(2_000)}; rm -rf /`;
    await emit(approvalState({}, { command, note: 'x\u0000y\u202Ez' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    const json = JSON.stringify(command);
    expect(json.length).toBeGreaterThan(APPROVAL_VALUE_PREVIEW_CHARS);
    const details = card.querySelector('.approval-args > details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe(`"command": Show all ${json.length} characters`);
    expect(details.querySelector('.approval-value')?.textContent).toBe(json);
    const values = Array.from(card.querySelectorAll('.approval-args > pre.approval-value'));
    expect(values.length).toBe(1);
    expect(values[0]?.textContent).toBe('"note": "x\\u0000y⟪U+202E⟫z"');
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
    const args = card.querySelector('.approval-args') as HTMLElement;
    const allow = card.querySelector('[part="allow-button"]') as HTMLElement;
    expect(allow.getBoundingClientRect().top - args.getBoundingClientRect().bottom).toBeLessThan(120);
    details.open = true;
    expect(args.getBoundingClientRect().height).toBeLessThanOrEqual(280);
    expect(allow.getBoundingClientRect().top - args.getBoundingClientRect().bottom).toBeLessThan(120);
  });

  it('spells out tag, zero-width and word-joiner characters in keys and values, with the warning', async () => {
    const { root, emit } = await mountAgentChat();
    await emit(approvalState({}, { 'pa\u200Bth': '/tmp\u{E0041}\u{E0042}', q: 'a\u2060b' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(Array.from(card.querySelectorAll('.approval-value'), (value) => value.textContent)).toEqual([
      '"pa⟪U+200B⟫th": "/tmp⟪U+E0041⟫⟪U+E0042⟫"',
      '"q": "a⟪U+2060⟫b"',
    ]);
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
  });

  it('is operable by keyboard alone: Tab to Allow and press Enter, then Space on Deny', async () => {
    const { client, root, emit } = await mountAgentChat();
    await emit(approvalState({}));
    (root.querySelector('.approval-args') as HTMLElement).focus();
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('allow-button');
    await userEvent.keyboard('{Enter}');
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('deny-button');
    await userEvent.keyboard(' ');
    expect(client.calls.filter((call) => call.name === 'approve')).toEqual([
      { name: 'approve', interruptId: 'i1', decision: 'allow' },
      { name: 'approve', interruptId: 'i1', decision: 'deny' },
    ]);
  });

  it('is rebuilt from state alone after a reload', async () => {
    const first = await mountAgentChat();
    await first.emit(approvalState({ expiresAt: '2030-01-01T12:30:00.000Z' }));
    const before = first.root.querySelector('[part="approval-card"]')?.textContent;
    first.element.remove();
    const second = await mountAgentChat();
    await second.emit(approvalState({ expiresAt: '2030-01-01T12:30:00.000Z' }));
    expect(second.root.querySelector('[part="approval-card"]')?.textContent).toBe(before);
  });
});
