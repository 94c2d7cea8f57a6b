import type { Message } from '@ag-ui/core';
import type { ModelMessage } from '../models/model-adapter.ts';

/**
 * The loop's conversation as AG-UI `messages`: user and assistant turns (a user message's attached
 * images as `image` content parts with inline `data` sources), the assistant's tool calls
 * (`toolCalls[].function.arguments` is the raw JSON text) and their results as `tool` messages (a
 * result that is not `completed` also names its status in `error`). The system prompt is not sent:
 * the agent has its own. Ids are positions in the conversation, so a message keeps its id in
 * every later round and run (`m0`, `m1`, …, after the system prompt).
 */
export function toAgUiMessages(messages: readonly ModelMessage[]): Message[] {
  return messages
    .filter((message) => message.role !== 'system')
    .map((message, index): Message => {
      const id = `m${index}`;
      switch (message.role) {
        case 'user':
          return message.images === undefined || message.images.length === 0
            ? { id, role: 'user', content: message.content }
            : {
                id,
                role: 'user',
                content: [
                  { type: 'text', text: message.content },
                  ...message.images.map((image) => ({
                    type: 'image' as const,
                    source: { type: 'data' as const, value: image.base64, mimeType: image.mediaType },
                  })),
                ],
              };
        case 'assistant':
          return {
            id,
            role: 'assistant',
            ...(message.content === '' ? {} : { content: message.content }),
            ...(message.toolCalls === undefined || message.toolCalls.length === 0
              ? {}
              : {
                  toolCalls: message.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function' as const,
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }),
          };
        case 'tool':
          return {
            id,
            role: 'tool',
            toolCallId: message.toolCallId,
            content: message.content,
            ...(message.status === 'completed' ? {} : { error: message.status }),
          };
        default:
          throw new RangeError('system messages are filtered out above');
      }
    });
}
