import { afterEach, describe, expect, it } from 'vitest';
import type { AttachmentStore } from '../../server/attachments/attachment-store.ts';
import { createMemoryAttachmentStore } from '../../server/attachments/memory-attachment-store.ts';
import { createRecordingFetch } from '../../../test/support/record-fetch.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle } from './agent-client-types.ts';

let server: ReferenceServer | undefined;
let client: AgentClientHandle | undefined;
afterEach(async () => {
  client?.dispose();
  await server?.close();
  server = undefined;
  client = undefined;
});

/** Waits until `condition` holds (expect.poll, up to 4 s). */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 4_000, interval: 5 }).toBe(true);
}

describe('uploads from one client', () => {
  it('go two at a time, so five files picked together are all kept instead of three refused', async () => {
    const inner = createMemoryAttachmentStore();
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let storing = 0;
    const attachments: AttachmentStore = {
      ...inner,
      async put(attachment, bytes) {
        storing += 1;
        await opened;
        await inner.put(attachment, bytes);
      },
    };
    server = await startReferenceServer({ attachments });
    const recorder = createRecordingFetch();
    client = createAgentClient({ endpoint: `http://127.0.0.1:${server.port}/api/agent`, fetch: recorder.fetch });
    const sent = () => recorder.requests.filter((request) => request.path.endsWith('/attachments')).length;
    const uploads = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      (client as AgentClientHandle).uploadAttachment(new Blob([`file ${name}`], { type: 'text/plain' }), {
        name: `${name}.txt`,
      }),
    );
    await waitFor(() => storing === 2, 'two uploads are being stored');
    expect(sent()).toBe(2);
    open();
    const stored = await Promise.all(uploads);
    expect(stored.map((file) => file.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    expect(sent()).toBe(5);
  });
});
