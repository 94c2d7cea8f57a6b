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

  it('says when it expires relative to now, and marks Allow as dangerous for a destructive call', async () => {
    const { root, emit } = await mountAgentChat();
    const expiresAt = new Date(Date.now() + 14 * 60_000 - 5_000).toISOString();
    await emit(approvalState({ expiresAt, metadata: { destructive: true } }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('.approval-expiry')?.textContent?.trim()).toBe('Expires in 14 minutes');
    expect(card.querySelector('time')?.getAttribute('datetime')).toBe(expiresAt);
    expect(card.hasAttribute('data-destructive')).toBe(true);
    expect(card.querySelector('[part="allow-button"]')?.className).toBe('danger');
  });

  const outcomes: Array<[Partial<SnapshotInterrupt>, string]> = [
    [{ state: 'resolved', decision: 'allow' }, 'Allowed'],
    [{ state: 'resolved', decision: 'deny' }, 'Denied'],
    [{ state: 'expired' }, 'Expired without an answer'],
    [{ state: 'cancelled' }, 'Cancelled'],
  ];
  for (const [interrupt, text] of outcomes) {
    it(`collapses to its title and "${text}" once ${interrupt.state}${interrupt.decision ? ` (${interrupt.decision})` : ''}`, async () => {
      const { root, emit } = await mountAgentChat();
      await emit({ interrupts: [{ id: 'i1', reason: 'confirm', state: 'open', ...interrupt }] });
      const card = root.querySelector('[part="approval-card"]') as HTMLElement;
      expect(card.dataset.state).toBe(interrupt.state);
      expect([card.querySelector('h3')?.textContent, card.querySelector('.approval-outcome')?.textContent]).toEqual([
        'Approval needed: confirm',
        text,
      ]);
      expect(card.querySelectorAll('button, .approval-args').length).toBe(0);
    });
  }

  it("is the tool call's one card while open, and gives way to the tool's line once answered", async () => {
    const { root, emit } = await mountAgentChat();
    await emit(approvalState({}));
    expect(root.querySelectorAll('[part="approval-card"]').length).toBe(1);
    expect(root.querySelector('[part="tool-card"]')).toBe(null);
    await emit({
      toolCalls: [{ toolCallId: 't1', name: 'delete_files', title: 'Delete files', status: 'denied' }],
      interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'expired', decision: 'deny' }],
    });
    expect(root.querySelector('[part="approval-card"]')).toBe(null);
    expect(root.querySelector('[part="tool-card"] summary')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Delete files Expired without an answer',
    );
  });

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

  it('is operable by keyboard alone, and focus goes to the composer after Allow or Deny, never to <body>', async () => {
    const { client, root, emit } = await mountAgentChat();
    await emit(approvalState({}));
    (root.querySelector('.approval-args') as HTMLElement).focus();
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('allow-button');
    await userEvent.keyboard('{Enter}');
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    await emit({ submittingInterruptIds: ['i1'] });
    expect(document.activeElement?.tagName).toBe('AGENT-CHAT');
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    await emit({ ...approvalState({ id: 'i2' }), submittingInterruptIds: [] });
    (root.querySelector('.approval-args') as HTMLElement).focus();
    await userEvent.tab();
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('deny-button');
    await userEvent.keyboard(' ');
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    expect(client.calls.filter((call) => call.name === 'approve')).toEqual([
      { name: 'approve', interruptId: 'i1', decision: 'allow' },
      { name: 'approve', interruptId: 'i2', decision: 'deny' },
    ]);
  });

  it('is rebuilt from state alone after a reload', async () => {
    const first = await mountAgentChat();
    await first.emit(approvalState({}));
    const before = first.root.querySelector('[part="approval-card"]')?.textContent;
    first.element.remove();
    const second = await mountAgentChat();
    await second.emit(approvalState({}));
    expect(second.root.querySelector('[part="approval-card"]')?.textContent).toBe(before);
  });
});
