import { describe, expect, it } from 'vitest';
import type { RunHandle } from '../runs/run-handle.ts';
import { buildUserMessage } from './user-message.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);

/** The parts of a handle the user message is built from (a fresh run and a resumed one alike). */
function handleWith(stored: Record<string, Uint8Array>): RunHandle {
  return {
    input: {
      messageId: 'msg_1',
      text: 'Compare these',
      files: [
        { attachmentId: 'att_a', name: 'a.png', mediaType: 'image/png', size: PNG.byteLength },
        { attachmentId: 'att_csv', name: 'b.csv', mediaType: 'text/csv', size: 4 },
        { attachmentId: 'att_gone', name: 'gone.png', mediaType: 'image/png', size: 9 },
      ],
    },
    readAttachment: async (attachmentId: string) => stored[attachmentId] ?? null,
  } as unknown as RunHandle;
}

describe('buildUserMessage', () => {
  it('carries the images read now as base64 image parts, leaves text files to their layer and names a gone image', async () => {
    expect(await buildUserMessage(handleWith({ att_a: PNG }))).toEqual({
      role: 'user',
      content: 'Compare these\n\n[Attached images no longer available: gone.png]',
      images: [{ mediaType: 'image/png', base64: Buffer.from(PNG).toString('base64') }],
    });
  });

  it('is the plain text message when the run has no files', async () => {
    const handle = { input: { messageId: 'msg_1', text: 'Hi' } } as unknown as RunHandle;
    expect(await buildUserMessage(handle)).toEqual({ role: 'user', content: 'Hi' });
  });
});
