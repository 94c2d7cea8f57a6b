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

/** The key–value list as `[label, value]` pairs, as read. */
function argumentsOf(card: HTMLElement): Array<[string | null, string | null]> {
  return Array.from(card.querySelectorAll('.approval-arg'), (row) => [
    row.querySelector('dt')?.textContent ?? null,
    row.querySelector('dd')?.textContent ?? null,
  ]);
}

describe('approval card', () => {
  it('shows the arguments as labels and readable values, the expiry and calls approve() on Allow and Deny', async () => {
    const { element, client, root, emit } = await mountAgentChat();
    const events: AgentChatApproveDetail[] = [];
    element.addEventListener('agent-chat-approve', (event) => events.push(event.detail));
    await emit(approvalState({ expiresAt: '2030-01-01T12:30:00.000Z' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('h3')?.textContent).toBe('Approval needed: delete_files');
    expect(argumentsOf(card)).toEqual([
      ['path', '/srv/release'],
      ['recursive', 'true'],
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

  it("asks the tool's summary as its heading, says the consequence, and keeps the exact JSON and the tool's name one click away", async () => {
    const { root, emit } = await mountAgentChat();
    const summary = 'Delete the draft "Q3 plan <b>old</b>"?';
    const args = { draftId: 'd-2', count: 3, force: false, none: null, blank: '  ', tags: ['a', 'b'], at: { x: 1 } };
    await emit({
      ...approvalState(
        {
          message: summary,
          metadata: { destructive: true, summary, consequence: "This can't be undone." },
        },
        args,
      ),
    });
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('h3')?.textContent).toBe(summary);
    expect(card.querySelector('b')).toBe(null);
    expect(card.getAttribute('aria-labelledby')).toBe(card.querySelector('h3')?.id);
    // The message is the same question: it is not said twice.
    expect(card.querySelector('.approval-message')).toBe(null);
    expect(card.querySelector('.approval-consequence')?.textContent).toBe("This can't be undone.");
    expect(argumentsOf(card)).toEqual([
      ['draftId', 'd-2'],
      ['count', '3'],
      ['force', 'false'],
      ['none', 'null'],
      ['blank', '"  "'],
      ['tags', '["a","b"]'],
      ['at', '{"x":1}'],
    ]);
    const details = card.querySelector('.approval-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Details');
    expect(details.querySelector('.approval-tool')?.textContent).toBe('Tool: delete_files');
    expect(details.querySelector('.approval-json')?.textContent).toBe(JSON.stringify(args, null, 2));
    const json = details.querySelector('.approval-json') as HTMLElement;
    expect(json.checkVisibility()).toBe(false);
    details.querySelector('summary')?.click();
    await Promise.resolve();
    expect(details.open).toBe(true);
    expect(json.checkVisibility()).toBe(true);
    // Destructive: the consequence and Allow in the danger style.
    const danger = getComputedStyle(card).borderTopColor;
    expect(getComputedStyle(card.querySelector('.approval-consequence') as Element).color).toBe(danger);
    expect(card.querySelector('[part="allow-button"]')?.className).toBe('danger');
  });

  it('spells out hidden characters of the summary and consequence, with the warning', async () => {
    const { root, emit } = await mountAgentChat();
    await emit(approvalState({ metadata: { summary: 'Delete "a\u202Eb"?', consequence: 'Gone\u200B.' } }, { id: 1 }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('h3')?.textContent).toBe('Delete "a⟪U+202E⟫b"?');
    expect(card.querySelector('.approval-consequence')?.textContent).toBe('Gone⟪U+200B⟫.');
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
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

  it('folds a padded value behind its length beside its label and the buttons, the whole value one click away', async () => {
    const { root, emit } = await mountAgentChat();
    const command = `echo hi${' '.repeat(2_000)}; rm -rf /`;
    await emit(approvalState({}, { command, note: 'x\u0000y\u202Ez' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(command.length).toBeGreaterThan(APPROVAL_VALUE_PREVIEW_CHARS);
    const details = card.querySelector('.approval-args dd > details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(card.querySelector('.approval-arg dt')?.textContent).toBe('command');
    expect(details.querySelector('summary')?.textContent).toBe(`Show all ${command.length} characters`);
    expect(details.querySelector('.approval-value')?.textContent).toBe(command);
    expect(argumentsOf(card)[1]).toEqual(['note', 'x⟪U+0000⟫y⟪U+202E⟫z']);
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
    // The exact JSON (control characters as JSON escapes, the rest spelled out) is behind Details.
    expect(card.querySelector('.approval-json')?.textContent).toContain('"note": "x\\u0000y⟪U+202E⟫z"');
    const args = card.querySelector('.approval-args') as HTMLElement;
    const allow = card.querySelector('[part="allow-button"]') as HTMLElement;
    expect(allow.getBoundingClientRect().top - args.getBoundingClientRect().bottom).toBeLessThan(120);
    details.open = true;
    expect(args.getBoundingClientRect().height).toBeLessThanOrEqual(280);
    expect(allow.getBoundingClientRect().top - args.getBoundingClientRect().bottom).toBeLessThan(120);
    const json = card.querySelector('.approval-json') as HTMLElement;
    (card.querySelector('.approval-details') as HTMLDetailsElement).open = true;
    expect(json.getBoundingClientRect().height).toBeLessThanOrEqual(280);
    expect(allow.getBoundingClientRect().top - json.getBoundingClientRect().bottom).toBeLessThan(120);
  });

  it('spells out tag, zero-width and word-joiner characters in keys and values, with the warning', async () => {
    const { root, emit } = await mountAgentChat();
    await emit(approvalState({}, { 'pa\u200Bth': '/tmp\u{E0041}\u{E0042}', q: 'a\u2060b' }));
    const card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(argumentsOf(card)).toEqual([
      ['pa⟪U+200B⟫th', '/tmp⟪U+E0041⟫⟪U+E0042⟫'],
      ['q', 'a⟪U+2060⟫b'],
    ]);
    expect(card.querySelector('.approval-warning')?.textContent).toBe(
      'Contains hidden or control characters (shown as ⟪U+…⟫).',
    );
  });

  it('shows arguments that are no object, or no JSON, as they are', async () => {
    const { root, emit } = await mountAgentChat();
    await emit(approvalState({}, ['a', 1]));
    let card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('.approval-args dl')).toBe(null);
    expect(card.querySelector('.approval-args pre')?.textContent).toBe('[\n  "a",\n  1\n]');
    await emit({
      toolCalls: [{ toolCallId: 't1', name: 'delete_files', argsText: '{"path": "/srv', status: 'awaiting_approval' }],
    });
    card = root.querySelector('[part="approval-card"]') as HTMLElement;
    expect(card.querySelector('.approval-args pre')?.textContent).toBe('{"path": "/srv');
    expect(card.querySelector('.approval-json')?.textContent).toBe('{"path": "/srv');
  });

  it('is operable by keyboard alone, and focus goes to the composer after Allow or Deny, never to <body>', async () => {
    const { client, root, emit } = await mountAgentChat();
    await emit(approvalState({}));
    (root.querySelector('.approval-args') as HTMLElement).focus();
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).textContent).toBe('Details');
    await userEvent.tab();
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('allow-button');
    await userEvent.keyboard('{Enter}');
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    await emit({ submittingInterruptIds: ['i1'] });
    expect(document.activeElement?.tagName).toBe('AGENT-CHAT');
    expect((root.activeElement as HTMLElement).getAttribute('part')).toBe('input');
    await emit({ ...approvalState({ id: 'i2' }), submittingInterruptIds: [] });
    (root.querySelector('.approval-details summary') as HTMLElement).focus();
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
