import { describe, expect, it } from 'vitest';
import type { RunResource, SessionMessagesResponse } from '../../core/protocol.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { everyStorage } from '../test-support/every-storage.ts';
import { useManualServers } from '../test-support/start-manual-server.ts';

const startServer = useManualServers();

type Handle = Awaited<ReturnType<ManualEngine['handleOf']>>;

/** A call with no text before it, its approval answered, its result. */
async function approvedCallFirst(handle: Handle, toolCallId: string): Promise<void> {
  await handle.append('TOOL_CALL_START', { toolCallId, toolCallName: 'drafts.delete' });
  await handle.append('TOOL_CALL_END', { toolCallId, args: { draftId: 'd1' }, argsDigest: 'sha256:x' });
  const interruptId = `int_${toolCallId}`;
  await handle.append('INTERRUPT_REQUESTED', { interrupt: { id: interruptId, reason: 'tool_call', toolCallId } });
  await handle.append('INTERRUPT_RESOLVED', { interruptId, status: 'resolved', decision: 'allow', resolvedBy: 'user' });
  await handle.append('TOOL_CALL_RESULT', {
    toolCallId,
    messageId: `msg_result_${toolCallId}`,
    content: '{"deleted":true}',
    status: 'completed',
  });
}

async function answer(handle: Handle, messageId: string, text: string): Promise<void> {
  await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
  await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: text });
  await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
}

describe.each(everyStorage('history-run-items'))(
  'history pages carry every item of their runs on %s storage (docs/protocol.md §5.7, §7.4)',
  (_name, openStorage) => {
    const start = () => startServer(openStorage);

    it('returns calls and approvals no message precedes, by sequence, and pages never drop one', async () => {
      const test = await start();
      // Turn 1: a call first (approved), a second call, then the answer. Turn 2: a question and an answer.
      const first = (await test.server.createRun('dana', 'Delete the draft')) as unknown as { runId: string };
      const handle = await test.engine.handleOf(first.runId);
      await approvedCallFirst(handle, 'tc_a');
      await approvedCallFirst(handle, 'tc_b');
      await answer(handle, 'msg_answer', 'Deleted both.');
      await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
      const { sessionId } = (await test.server
        .request(`/runs/${first.runId}`, { user: 'dana' })
        .then((response) => response.json())) as RunResource;
      const second = (await test.server.createRun('dana', 'Thanks', { sessionId })) as unknown as { runId: string };
      const secondHandle = await test.engine.handleOf(second.runId);
      await answer(secondHandle, 'msg_welcome', 'You are welcome.');
      await secondHandle.append('RUN_FINISHED', { outcome: { type: 'success' } });

      const read = async (query = ''): Promise<SessionMessagesResponse> =>
        (await (
          await test.server.request(`/sessions/${sessionId}/messages${query}`, { user: 'dana' })
        ).json()) as SessionMessagesResponse;
      const whole = await read();
      expect(whole.toolCalls.map((call) => [call.toolCallId, call.runId, call.status])).toEqual([
        ['tc_a', first.runId, 'completed'],
        ['tc_b', first.runId, 'completed'],
      ]);
      expect(whole.interrupts.map((interrupt) => [interrupt.id, interrupt.runId, interrupt.state])).toEqual([
        ['int_tc_a', first.runId, 'resolved'],
        ['int_tc_b', first.runId, 'resolved'],
      ]);
      // One order: the user message (seq 1), both calls, then the answer, as the events were sequenced.
      const seqOf = (id: string): number | undefined =>
        [
          ...whole.items.map((m) => [m.messageId, m.seq] as const),
          ...whole.toolCalls.map((c) => [c.toolCallId, c.seq] as const),
        ].find(([itemId]) => itemId === id)?.[1];
      const userSeq = whole.items.find((message) => message.runId === first.runId && message.role === 'user')?.seq;
      expect(userSeq).toBe(1);
      expect([seqOf('tc_a'), seqOf('tc_b'), seqOf('msg_answer')]).toEqual(
        [seqOf('tc_a'), seqOf('tc_b'), seqOf('msg_answer')].toSorted((a = 0, b = 0) => a - b),
      );
      expect(seqOf('tc_a')).toBeGreaterThan(1);

      // Paged one message at a time: every call and approval of turn 1 comes with each page that covers it.
      const pageIds: string[][] = [];
      let before: string | null = '';
      const seen = new Set<string>();
      while (before !== null) {
        const page = await read(`?limit=1${before === '' ? '' : `&before=${before}`}`);
        pageIds.push(page.items.map((message) => message.messageId));
        for (const call of page.toolCalls) seen.add(call.toolCallId);
        for (const interrupt of page.interrupts) seen.add(interrupt.id);
        const coversFirst = page.items.some((message) => message.runId === first.runId);
        expect(page.toolCalls.map((call) => call.toolCallId)).toEqual(coversFirst ? ['tc_a', 'tc_b'] : []);
        before = page.nextBefore;
      }
      expect(pageIds.flat()).toHaveLength(whole.items.length);
      expect([...seen].sort()).toEqual(['int_tc_a', 'int_tc_b', 'tc_a', 'tc_b']);
    });
  },
);
