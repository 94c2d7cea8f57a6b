import type { RunSnapshot } from '../../core/protocol.ts';
import type { ModelMessage } from '../models/model-adapter.ts';

/** Returns the text of the `/inputs` with these ids, in the order given, as user messages. */
export function readInputMessages(snapshot: RunSnapshot, inputIds: readonly string[]): ModelMessage[] {
  return inputIds.flatMap((inputId) => {
    const input = snapshot.inputs.find((candidate) => candidate.inputId === inputId);
    const message = snapshot.messages.find((candidate) => candidate.messageId === input?.messageId);
    return message === undefined ? [] : [{ role: 'user' as const, content: message.content }];
  });
}
