import type { AnyEventEnvelope, EventEnvelope, EventType } from '../../../core/protocol.ts';

/**
 * Throws when a run's log breaks an ordering invariant of docs/protocol.md §7: seq 1 is `RUN_STARTED`
 * and seqs are gapless; exactly one terminal event, last; per message START < CONTENT < END
 * (reasoning: START < MESSAGE_START < CONTENT < MESSAGE_END < END) with only `MESSAGE_DISCARDED`
 * after END; per tool call START < ARGS < END < interrupt < PROGRESS < one RESULT; every
 * interrupt resolved once after it was requested; nothing left open at the terminal event.
 */
export function assertEventInvariants(events: readonly EventEnvelope[]): void {
  const fail = (message: string): never => {
    throw new Error(
      `Event invariant broken: ${message}\n${events.map((e) => `${e.seq} ${e.type} ${JSON.stringify(e.data)}`).join('\n')}`,
    );
  };
  if (events[0]?.type !== 'RUN_STARTED') fail('seq 1 is not RUN_STARTED');
  events.forEach((event, index) => {
    if (event.seq !== index + 1) fail(`seq ${event.seq} at position ${index + 1}`);
  });
  const terminals = events.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR');
  if (terminals.length !== 1) fail(`${terminals.length} terminal events`);
  if (terminals[0] !== events.at(-1)) fail('the terminal event is not last');

  const stages = new Map<string, string[]>();
  const record = (key: string, stage: string): void => {
    stages.set(key, [...(stages.get(key) ?? []), stage]);
  };
  const interruptsByTool = new Map<string, string>();
  for (const event of events as readonly AnyEventEnvelope[]) {
    switch (event.type) {
      case 'TEXT_MESSAGE_START':
      case 'TEXT_MESSAGE_CONTENT':
      case 'TEXT_MESSAGE_END':
      case 'REASONING_START':
      case 'REASONING_MESSAGE_START':
      case 'REASONING_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_END':
      case 'REASONING_END':
      case 'MESSAGE_DISCARDED':
        record(`message ${event.data.messageId}`, event.type);
        break;
      case 'TOOL_CALL_START':
      case 'TOOL_CALL_ARGS':
      case 'TOOL_CALL_END':
      case 'TOOL_CALL_PROGRESS':
      case 'TOOL_CALL_RESULT':
      case 'WIDGET_UPDATED':
        record(`tool ${event.data.toolCallId}`, event.type);
        break;
      case 'INTERRUPT_REQUESTED':
        record(`interrupt ${event.data.interrupt.id}`, event.type);
        if (event.data.interrupt.toolCallId !== undefined) {
          interruptsByTool.set(event.data.interrupt.id, event.data.interrupt.toolCallId);
          record(`tool ${event.data.interrupt.toolCallId}`, event.type);
        }
        break;
      case 'INTERRUPT_RESOLVED': {
        record(`interrupt ${event.data.interruptId}`, event.type);
        const toolCallId = interruptsByTool.get(event.data.interruptId);
        if (toolCallId !== undefined) record(`tool ${toolCallId}`, event.type);
        break;
      }
      default:
        break;
    }
  }
  for (const [key, list] of stages) {
    const pattern = PATTERNS.find(([prefix, first]) => key.startsWith(prefix) && list[0] === first)?.[2];
    if (pattern === undefined) fail(`${key} starts with ${list[0]}`);
    else if (!pattern.test(list.join(' '))) fail(`${key} has the order ${list.join(' → ')}`);
  }
}

const PATTERNS: ReadonlyArray<readonly [string, EventType, RegExp]> = [
  [
    'message',
    'TEXT_MESSAGE_START',
    /^TEXT_MESSAGE_START( TEXT_MESSAGE_CONTENT)* TEXT_MESSAGE_END( MESSAGE_DISCARDED)?$/,
  ],
  [
    'message',
    'REASONING_START',
    /^REASONING_START REASONING_MESSAGE_START( REASONING_MESSAGE_CONTENT)* REASONING_MESSAGE_END REASONING_END( MESSAGE_DISCARDED)?$/,
  ],
  [
    'tool',
    'TOOL_CALL_START',
    /^TOOL_CALL_START( TOOL_CALL_ARGS)* TOOL_CALL_END( INTERRUPT_REQUESTED INTERRUPT_RESOLVED)?( TOOL_CALL_PROGRESS)* TOOL_CALL_RESULT( WIDGET_UPDATED)*$/,
  ],
  ['interrupt', 'INTERRUPT_REQUESTED', /^INTERRUPT_REQUESTED INTERRUPT_RESOLVED$/],
];
