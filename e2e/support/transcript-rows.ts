import type { APIRequestContext, Page } from '@playwright/test';
import type { EventDataMap, EventType } from '../../src/core/protocol.ts';

/**
 * One row of a transcript as a reader sees it: who speaks, or which tool with which status. Texts
 * are trimmed; a tool row names the tool as its card does (its title, else its name).
 */
export type TranscriptRow =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; status: string }
  | { kind: 'reasoning' }
  | { kind: 'tool'; name: string; status: string }
  | { kind: 'approval'; state: string }
  | { kind: 'error' };

/** One event of a run's log, as `GET /runs/{id}/events` sends it (the fields the projection reads). */
export interface RunEvent {
  seq: number;
  type: string;
  data: unknown;
}

/** The mutable state of one projected item while the run's events are folded. */
type Item =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'assistant'; id: string; text: string; status: string }
  | { kind: 'reasoning'; id: string }
  | { kind: 'tool'; id: string; name: string; status: string }
  | { kind: 'approval'; id: string; state: string }
  | { kind: 'error' };

/** The payload of an event of `type` (the projection reads only the fields the protocol defines). */
function dataOf<T extends EventType>(event: RunEvent, _type: T): EventDataMap[T] {
  return event.data as EventDataMap[T];
}

/**
 * Projects runs' event logs to the transcript rows they must read as: runs in the given order,
 * within a run each item where the event that started it was sequenced (`RUN_STARTED`: the user
 * message; `REASONING_MESSAGE_START`; `TEXT_MESSAGE_START`; `TOOL_CALL_START`; an
 * `INTERRUPT_REQUESTED` of no tool call of the run, as an approval row; `RUN_ERROR`). Later events
 * only change an item: text deltas append, a message's end sets its status, a tool call's status
 * follows docs/protocol.md §7.1, `MESSAGE_DISCARDED` removes the message. Each run's events are
 * sorted by `seq` first (the only ordering authority), so the input order does not matter.
 */
export function projectTranscript(runs: readonly (readonly RunEvent[])[]): TranscriptRow[] {
  return runs.flatMap((events) => projectRun(events));
}

function projectRun(events: readonly RunEvent[]): TranscriptRow[] {
  const items: Item[] = [];
  const find = <K extends Item['kind']>(kind: K, id: string): Extract<Item, { kind: K; id: string }> | undefined =>
    items.find((item) => item.kind === kind && 'id' in item && item.id === id) as
      Extract<Item, { kind: K; id: string }> | undefined;
  const setToolStatus = (id: string | undefined, status: string): void => {
    const tool = id === undefined ? undefined : find('tool', id);
    if (tool) tool.status = status;
  };
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    switch (event.type) {
      case 'RUN_STARTED': {
        const { input } = dataOf(event, 'RUN_STARTED');
        const text = input.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        items.push({ kind: 'user', id: input.messageId, text });
        break;
      }
      case 'TEXT_MESSAGE_START': {
        const data = dataOf(event, 'TEXT_MESSAGE_START');
        // A user message inside a run (an appended input) reads as a user row.
        if (data.role === 'user') items.push({ kind: 'user', id: data.messageId, text: '' });
        else items.push({ kind: 'assistant', id: data.messageId, text: '', status: 'streaming' });
        break;
      }
      case 'TEXT_MESSAGE_CONTENT': {
        const data = dataOf(event, 'TEXT_MESSAGE_CONTENT');
        const message = find('assistant', data.messageId) ?? find('user', data.messageId);
        if (message) message.text += data.delta;
        break;
      }
      case 'TEXT_MESSAGE_END': {
        const data = dataOf(event, 'TEXT_MESSAGE_END');
        const message = find('assistant', data.messageId);
        if (message) {
          const reason = data.finishReason;
          message.status = reason === 'cancelled' || reason === 'error' ? reason : 'complete';
        }
        break;
      }
      case 'REASONING_MESSAGE_START':
        items.push({ kind: 'reasoning', id: dataOf(event, 'REASONING_MESSAGE_START').messageId });
        break;
      case 'MESSAGE_DISCARDED': {
        const { messageId } = dataOf(event, 'MESSAGE_DISCARDED');
        const index = items.findIndex(
          (item) => (item.kind === 'assistant' || item.kind === 'reasoning') && item.id === messageId,
        );
        if (index >= 0) items.splice(index, 1);
        break;
      }
      case 'TOOL_CALL_START': {
        const data = dataOf(event, 'TOOL_CALL_START');
        items.push({
          kind: 'tool',
          id: data.toolCallId,
          name: data.title ?? data.toolCallName,
          status: 'streaming_args',
        });
        break;
      }
      case 'TOOL_CALL_END':
        setToolStatus(dataOf(event, 'TOOL_CALL_END').toolCallId, 'pending');
        break;
      case 'TOOL_CALL_PROGRESS':
        setToolStatus(dataOf(event, 'TOOL_CALL_PROGRESS').toolCallId, 'running');
        break;
      case 'TOOL_CALL_DISPATCHED':
        setToolStatus(dataOf(event, 'TOOL_CALL_DISPATCHED').toolCallId, 'awaiting_executor');
        break;
      case 'TOOL_CALL_RESULT': {
        const data = dataOf(event, 'TOOL_CALL_RESULT');
        setToolStatus(data.toolCallId, data.status);
        break;
      }
      case 'INTERRUPT_REQUESTED': {
        const { interrupt } = dataOf(event, 'INTERRUPT_REQUESTED');
        const tool = interrupt.toolCallId === undefined ? undefined : find('tool', interrupt.toolCallId);
        // An approval of a tool call is that call's row; any other interrupt is a row of its own.
        if (tool) tool.status = 'awaiting_approval';
        else items.push({ kind: 'approval', id: interrupt.id, state: 'open' });
        break;
      }
      case 'INTERRUPT_RESOLVED': {
        const data = dataOf(event, 'INTERRUPT_RESOLVED');
        const approval = find('approval', data.interruptId);
        if (approval) approval.state = data.status;
        for (const item of items) {
          if (
            item.kind === 'tool' &&
            item.status === 'awaiting_approval' &&
            isInterruptOf(events, data.interruptId, item.id)
          )
            item.status = data.decision === 'allow' ? 'running' : 'pending';
        }
        break;
      }
      case 'RUN_ERROR':
        items.push({ kind: 'error' });
        break;
      default:
        break;
    }
  }
  return items.map(toRow);
}

/** Whether the interrupt `interruptId` of `events` gates the tool call `toolCallId`. */
function isInterruptOf(events: readonly RunEvent[], interruptId: string, toolCallId: string): boolean {
  return events.some((event) => {
    if (event.type !== 'INTERRUPT_REQUESTED') return false;
    const { interrupt } = dataOf(event, 'INTERRUPT_REQUESTED');
    return interrupt.id === interruptId && interrupt.toolCallId === toolCallId;
  });
}

function toRow(item: Item): TranscriptRow {
  switch (item.kind) {
    case 'user':
      return { kind: 'user', text: item.text.trim() };
    case 'assistant':
      return { kind: 'assistant', text: item.text.trim(), status: item.status };
    case 'reasoning':
      return { kind: 'reasoning' };
    case 'tool':
      return { kind: 'tool', name: item.name, status: item.status };
    case 'approval':
      return { kind: 'approval', state: item.state };
    case 'error':
      return { kind: 'error' };
  }
}

/** The rows the widget in `container` shows, top to bottom, or `null` while a tool row is not rendered by its card file yet. */
export async function readTranscriptRows(page: Page, container: string): Promise<TranscriptRow[] | null> {
  return page.evaluate((selector) => {
    const transcript = document
      .querySelector(`${selector} agent-chat`)
      ?.shadowRoot?.querySelector('[part~="transcript"]');
    if (!transcript) return [];
    const rows: TranscriptRow[] = [];
    const textOf = (element: Element): string =>
      ((element.querySelector('.message-body') as HTMLElement | null)?.innerText ?? '').trim();
    const parts = transcript.querySelectorAll(
      '[part~="user-message"], [part~="assistant-message"], [part~="reasoning"], [part~="tool-card"], [part~="approval-card"], [part~="run-error"]',
    );
    for (const element of parts) {
      const part = element.getAttribute('part') ?? '';
      if (part.includes('user-message')) rows.push({ kind: 'user', text: textOf(element) });
      else if (part.includes('assistant-message'))
        rows.push({ kind: 'assistant', text: textOf(element), status: element.getAttribute('data-status') ?? '' });
      else if (part.includes('reasoning')) rows.push({ kind: 'reasoning' });
      else if (part.includes('tool-card')) {
        // The one-line placeholder stands until agent-chat.tool-cards.js has loaded.
        const title = element.querySelector('.tool-title');
        if (title === null) return null;
        rows.push({
          kind: 'tool',
          name: (title.textContent ?? '').trim(),
          status: element.getAttribute('data-status') ?? '',
        });
      } else if (part.includes('approval-card')) {
        const state = element.getAttribute('data-state');
        if (state === null) return null;
        rows.push({ kind: 'approval', state });
      } else rows.push({ kind: 'error' });
    }
    return rows;
  }, container);
}

/**
 * Reads a run's whole event log: `GET /runs/{runId}/events` from the start (an ended run's stream
 * replays every event and closes after the terminal one), parsed from its SSE `data:` lines.
 */
export async function readRunEvents(
  request: APIRequestContext,
  origin: string,
  runId: string,
  identityId: string,
): Promise<RunEvent[]> {
  const response = await request.get(`${origin}/api/agent/v1/runs/${encodeURIComponent(runId)}/events?after=0`, {
    headers: { 'Agent-Protocol': '1', 'X-Agent-Identity': identityId, Accept: 'text/event-stream' },
  });
  if (!response.ok()) throw new Error(`GET events of ${runId}: HTTP ${response.status()} ${await response.text()}`);
  return parseSseEvents(await response.text());
}

/** The envelopes of an SSE body (one JSON `data:` line per frame; comments and `retry:`/`id:` lines skipped). */
export function parseSseEvents(body: string): RunEvent[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice('data:'.length)) as RunEvent);
}

/** A compact one-line form of rows for reports: `user · tool(Look up an order, completed) · assistant`. */
export function describeRows(rows: readonly TranscriptRow[] | null): string {
  if (rows === null) return '(tool cards not rendered)';
  return rows
    .map((row) => {
      switch (row.kind) {
        case 'tool':
          return `tool(${row.name}, ${row.status})`;
        case 'approval':
          return `approval(${row.state})`;
        case 'assistant':
          return row.status === 'complete' ? 'assistant' : `assistant(${row.status})`;
        default:
          return row.kind;
      }
    })
    .join(' · ');
}
