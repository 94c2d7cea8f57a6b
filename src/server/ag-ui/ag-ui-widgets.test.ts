import { EventType } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, Widget } from '../../core/protocol.ts';
import { createAgUiTranslator } from './to-ag-ui-events.ts';

const WIDGET: Widget = {
  widgetId: 'order-1',
  root: { type: 'title', text: 'Order' },
  revision: 0,
  digest: 'sha256:abc',
};

function envelope(seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope {
  return {
    v: 1,
    eventId: `evt_${seq}`,
    runId: 'run_1',
    sessionId: 'ses_1',
    seq,
    cursor: String(seq),
    type,
    timestamp: 0,
    data,
  } as EventEnvelope;
}

describe('widgets over AG-UI', () => {
  it('sends a result’s widget as a CUSTOM agent-chat.widget event right after the tool result', () => {
    const translator = createAgUiTranslator({ threadId: 't', runId: 'r', ourRunId: 'run_1', sessionId: 'ses_1' });
    const { events } = translator.translate(
      envelope(5, 'TOOL_CALL_RESULT', {
        toolCallId: 'tc_1',
        messageId: 'msg_2',
        content: 'ok',
        status: 'completed',
        widget: WIDGET,
      }),
    );
    const types = events.map((event) => event.type);
    const at = types.indexOf(EventType.TOOL_CALL_RESULT);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(events[at + 1]).toEqual({
      type: EventType.CUSTOM,
      name: 'agent-chat.widget',
      value: { toolCallId: 'tc_1', widget: WIDGET },
    });
    expect(JSON.stringify(events[at])).not.toContain('order-1');
  });

  it('sends an update of a shown widget as the same CUSTOM event, carrying its new revision', () => {
    const translator = createAgUiTranslator({ threadId: 't', runId: 'r', ourRunId: 'run_1', sessionId: 'ses_1' });
    const updated: Widget = {
      ...WIDGET,
      root: { type: 'title', text: 'Order delivered' },
      revision: 1,
      digest: 'sha256:def',
    };
    const { events } = translator.translate(envelope(6, 'WIDGET_UPDATED', { toolCallId: 'tc_1', widget: updated }));
    // The first event of a translation opens the AG-UI run; the update follows it.
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.CUSTOM]);
    expect(events[1]).toEqual({
      type: EventType.CUSTOM,
      name: 'agent-chat.widget',
      value: { toolCallId: 'tc_1', widget: updated },
    });
  });
});
