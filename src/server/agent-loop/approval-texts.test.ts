import { describe, expect, it } from 'vitest';
import { sha256Digest } from '../json/canonical-json.ts';
import {
  APPROVAL_SUMMARY_TIMEOUT_MS,
  MAX_APPROVAL_TEXT_CHARS,
  type ToolApprovalTexts,
  type ToolDefinition,
} from '../tools/tool-registry.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, settle, startEngine } from './test-support/run-engine-harness.ts';

const isAwaiting = (s: { status: string }): boolean => s.status === 'awaiting_input';
const DEFAULT_QUESTION = '"Archive a note" needs your OK before it runs. Check the details below.';

/** A model that calls `notes.archive` with `args` once, then answers. */
function archiveOnce(args: Record<string, unknown>) {
  return createListModel([
    [
      { type: 'tool_call', id: 'call_a', name: 'notes.archive', arguments: JSON.stringify(args) },
      { type: 'finish', reason: 'tool_calls' },
    ],
    [
      { type: 'text', delta: 'Handled.' },
      { type: 'finish', reason: 'stop' },
    ],
  ]);
}

/** An `ask` tool with `approval`, recording the arguments it ran with. */
function archiveTool(approval: ToolApprovalTexts, ran: unknown[] = []): ToolDefinition {
  return {
    name: 'notes.archive',
    title: 'Archive a note',
    description: 'Archives a note.',
    parameters: {
      type: 'object',
      properties: { noteId: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['noteId'],
      additionalProperties: false,
    },
    policy: 'ask',
    approval,
    run: (args) => {
      ran.push(args);
      return Promise.resolve('archived');
    },
  };
}

describe("a tool's approval texts", () => {
  it('/approval asks about the draft by its title, says the consequence, and stays destructive', async () => {
    const run = startEngine('/approval');
    const [interrupt] = (await run.until(isAwaiting)).interrupts;
    expect(interrupt?.message).toBe('Delete the draft "Quarterly report (unfinished)"?');
    expect(interrupt?.metadata).toEqual({
      destructive: true,
      summary: 'Delete the draft "Quarterly report (unfinished)"?',
      consequence: "This can't be undone.",
    });
    expect(interrupt?.argsDigest).toBe(sha256Digest({ draftId: 'draft-42' }));
    await run.decide(interrupt?.id ?? '', 'allow');
    await run.done;
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('gets a copy of the arguments and the run locale: a summary that changes them changes nothing', async () => {
    const ran: unknown[] = [];
    const seen: unknown[] = [];
    const tool = archiveTool(
      {
        summary(args, { subject, locale }) {
          seen.push([subject.id, locale]);
          args['noteId'] = 'someone-else';
          (args['tags'] as string[]).push('extra');
          return '  Archive the note "Groceries"?  ';
        },
        consequence: 'You can restore it from the archive.',
      },
      ran,
    );
    const run = startEngine('go', { model: archiveOnce({ noteId: 'n-1', tags: ['a'] }), tools: [tool] });
    const [interrupt] = (await run.until(isAwaiting)).interrupts;
    expect([interrupt?.message, interrupt?.metadata]).toEqual([
      'Archive the note "Groceries"?',
      { summary: 'Archive the note "Groceries"?', consequence: 'You can restore it from the archive.' },
    ]);
    expect(seen).toHaveLength(1);
    expect(interrupt?.argsDigest).toBe(sha256Digest({ noteId: 'n-1', tags: ['a'] }));
    await run.decide(interrupt?.id ?? '', 'allow');
    await run.done;
    expect(ran).toEqual([{ noteId: 'n-1', tags: ['a'] }]);
  });

  it.each<[string, ToolApprovalTexts['summary']]>([
    [
      'throws',
      () => {
        throw new Error('lookup failed');
      },
    ],
    ['rejects', () => Promise.reject(new Error('lookup failed'))],
    ['gives no text', () => undefined],
    ['gives a blank', () => ' \n '],
    ['gives something else than a string', () => 42 as unknown as string],
  ])('a summary that %s leaves the default question, and the run goes on', async (_title, summary) => {
    const ran: unknown[] = [];
    const run = startEngine('go', {
      model: archiveOnce({ noteId: 'n-1' }),
      tools: [archiveTool(summary === undefined ? {} : { summary, consequence: 'Archived notes stay 30 days.' }, ran)],
    });
    const [interrupt] = (await run.until(isAwaiting)).interrupts;
    expect([interrupt?.message, interrupt?.metadata]).toEqual([
      DEFAULT_QUESTION,
      { consequence: 'Archived notes stay 30 days.' },
    ]);
    await run.decide(interrupt?.id ?? '', 'allow');
    await run.done;
    expect(ran).toHaveLength(1);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('logs a summary that throws as a warning naming the tool', async () => {
    const run = startEngine('go', {
      model: archiveOnce({ noteId: 'n-1' }),
      tools: [archiveTool({ summary: () => Promise.reject(new Error('lookup failed')) })],
    });
    await run.until(isAwaiting);
    expect(run.logs.map((entry) => [entry.level, entry.message])).toEqual([
      ['warn', 'the approval summary of tool "notes.archive" failed; asking the default question'],
    ]);
  });

  it(`cuts a summary and a consequence longer than ${MAX_APPROVAL_TEXT_CHARS} characters, whole code points`, async () => {
    const long = `Archive ${'😀'.repeat(500)}?`;
    const run = startEngine('go', {
      model: archiveOnce({ noteId: 'n-1' }),
      tools: [archiveTool({ summary: () => long, consequence: 'x'.repeat(10_000) })],
    });
    const [interrupt] = (await run.until(isAwaiting)).interrupts;
    const summary = interrupt?.metadata?.['summary'] as string;
    expect(Array.from(summary)).toHaveLength(MAX_APPROVAL_TEXT_CHARS);
    expect(summary).toBe(
      `${Array.from(long)
        .slice(0, MAX_APPROVAL_TEXT_CHARS - 1)
        .join('')}…`,
    );
    expect(interrupt?.message).toBe(summary);
    expect(interrupt?.metadata?.['consequence']).toBe(`${'x'.repeat(MAX_APPROVAL_TEXT_CHARS - 1)}…`);
  });

  it(`asks the default question when a summary takes longer than ${APPROVAL_SUMMARY_TIMEOUT_MS} ms`, async () => {
    const run = startEngine('go', {
      model: archiveOnce({ noteId: 'n-1' }),
      tools: [archiveTool({ summary: () => new Promise<string>(() => undefined) })],
    });
    await settle();
    expect(dataOf(run.events(), 'INTERRUPT_REQUESTED')).toEqual([]);
    run.clock.advance(APPROVAL_SUMMARY_TIMEOUT_MS);
    const [interrupt] = (await run.until(isAwaiting)).interrupts;
    expect([interrupt?.message, interrupt?.metadata]).toEqual([DEFAULT_QUESTION, undefined]);
  });
});
