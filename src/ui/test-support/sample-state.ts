import type { ClientState } from '../../core/index.ts';
import { createMessage } from './mount-agent-chat.ts';

/** A conversation with every kind of row: user text, reasoning, Markdown, a finished tool and an open approval. */
export function createSampleState(): Partial<ClientState> {
  return {
    connection: 'streaming',
    run: { runId: 'run-1', status: 'awaiting_input', lastSeq: 12 },
    messages: [
      createMessage({ messageId: 'u1', role: 'user', content: 'How big is the release folder? Then clean it up.' }),
      createMessage({
        messageId: 'r1',
        role: 'reasoning',
        content: 'List the folder first, then ask before deleting.',
      }),
      createMessage({
        messageId: 'a1',
        content:
          'The folder holds **3 files** (see [the docs](https://example.com/docs)):\n\n```sh\ndu -sh release/\n```\n\nI will ask before deleting.',
      }),
    ],
    toolCalls: [
      {
        toolCallId: 't1',
        name: 'list_files',
        title: 'List files',
        parentMessageId: 'a1',
        args: { path: 'release/' },
        status: 'completed',
        result: { messageId: 'm-t1', content: '{"files":["a.zip","b.zip","c.zip"]}' },
      },
      {
        toolCallId: 't2',
        name: 'delete_files',
        parentMessageId: 'a1',
        args: { path: 'release/', recursive: true },
        status: 'awaiting_approval',
      },
    ],
    interrupts: [
      {
        id: 'i1',
        reason: 'tool_call',
        toolCallId: 't2',
        state: 'open',
        message: 'Delete every file in release/?',
        expiresAt: '2030-01-01T12:30:00.000Z',
      },
    ],
  };
}
