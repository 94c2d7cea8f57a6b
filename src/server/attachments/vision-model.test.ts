import { afterEach, describe, expect, it } from 'vitest';
import type { UploadAttachmentResponse } from '../../core/protocol.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { createOpenAiCompatibleModel } from '../models/openai-compatible-model.ts';
import type { FakeOpenAiServer } from '../models/test-support/fake-openai-server.ts';
import { completionChunk, startFakeOpenAiServer } from '../models/test-support/fake-openai-server.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import { createMemoryAttachmentStore } from './memory-attachment-store.ts';

const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x7f]);
const CSV_TEXT = 'city,visitors\nLyon,3\nOslo,5\n';

let server: EngineServer | undefined;
let provider: FakeOpenAiServer | undefined;

afterEach(async () => {
  await server?.close();
  await provider?.close();
  server = undefined;
  provider = undefined;
});

async function upload(name: string, type: string, bytes: Uint8Array): Promise<UploadAttachmentResponse> {
  const response = await (server as EngineServer).request('/attachments', {
    method: 'POST',
    headers: { 'content-type': type, 'x-attachment-name': name },
    rawBody: bytes as unknown as string,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as UploadAttachmentResponse;
}

async function send(
  text: string,
  attachmentIds: string[],
  sessionId?: string,
): Promise<{ runId: string; sessionId: string }> {
  const response = await (server as EngineServer).request('/runs', {
    headers: { 'idempotency-key': freshKey() },
    body: {
      agentVersionId: 'agv_demo_1',
      ...(sessionId === undefined ? {} : { sessionId }),
      input: {
        content: [{ type: 'text', text }],
        attachments: attachmentIds.map((attachmentId) => ({ attachmentId })),
      },
    },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { runId: string; sessionId: string };
}

describe('attached files reach an OpenAI-compatible vision model', () => {
  it('sends the image as an image_url part with exactly its bytes and the CSV as text; later turns name them', async () => {
    provider = await startFakeOpenAiServer();
    provider.reply({
      kind: 'stream',
      pieces: [completionChunk({ content: 'Seen.' }, 'stop'), 'data: [DONE]\n\n'],
    });
    server = await startEngineServer({
      engine: { model: createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'fake-vision' }), tools: [] },
      handler: {
        attachments: createMemoryAttachmentStore(),
        models: [{ modelId: 'fake-vision', label: 'Fake vision', default: true, available: true, imageInput: true }],
      },
    });
    const image = await upload('shot.png', 'image/png', PNG_BYTES);
    const csv = await upload('visits.csv', 'text/csv', new TextEncoder().encode(CSV_TEXT));
    const first = await send('What do these show?', [image.attachmentId, csv.attachmentId]);
    await (
      await server.follow(first.runId)
    ).done;

    const messages = provider.requests[0]?.body['messages'] as { role: string; content: unknown }[];
    const user = messages.find((message) => message.role === 'user');
    expect(user?.content).toEqual([
      { type: 'text', text: 'What do these show?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(PNG_BYTES).toString('base64')}` } },
    ]);
    const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
    expect(system.some((content) => typeof content === 'string' && content.includes(CSV_TEXT))).toBe(true);

    const second = await send('And now?', [], first.sessionId);
    await (
      await server.follow(second.runId)
    ).done;
    const later = provider.requests[1]?.body['messages'] as { role: string; content: unknown }[];
    const users = later.filter((message) => message.role === 'user').map((message) => message.content);
    expect(users).toEqual([
      `What do these show?\n\n[Attached: shot.png (image/png, ${PNG_BYTES.byteLength} bytes), visits.csv (text/csv, ${CSV_TEXT.length} bytes)]`,
      'And now?',
    ]);
  });
});
