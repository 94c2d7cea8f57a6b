import { css, html, nothing, render } from 'lit';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientState, ProtocolRequest, SnapshotMessage } from '../core/index.ts';
import { AgentError } from '../core/index.ts';
import { EN_STRINGS } from './i18n/en.ts';
import { EN_TURN_STRINGS } from './i18n/en-turn-actions.ts';
import { renderVisibleText } from './text/render-visible-text.ts';
import type { BranchClient } from './turn-branches.ts';
import { createTurnBranches } from './turn-branches.ts';

afterEach(() => document.body.replaceChildren());

const renderBranches = createTurnBranches({ html, nothing, css, renderVisibleText });
const strings = { ...EN_STRINGS, ...EN_TURN_STRINGS };

const first: SnapshotMessage[] = [
  { messageId: 'u1', role: 'user', content: 'Hi', status: 'complete', runId: 'run_1' },
  { messageId: 'a1', role: 'assistant', content: 'Hello', status: 'complete', runId: 'run_1' },
];
/** The second turn: a question with a reference and a file, and its answer. */
const question: SnapshotMessage = {
  messageId: 'u2',
  role: 'user',
  content: 'Sum the file',
  status: 'complete',
  runId: 'run_2',
  parentMessageId: 'a1',
  contextRefs: [{ ref: 'doc:7', title: 'Q3' }],
  attachments: [{ attachmentId: 'att_1', name: 'q3.csv', mediaType: 'text/csv', size: 20 }],
  branchMessageIds: ['u0', 'u2', 'u9'],
};
const answer: SnapshotMessage = {
  messageId: 'a2',
  role: 'assistant',
  content: '42',
  status: 'complete',
  runId: 'run_2',
};

/** A client over fixed state that keeps the requests it is asked to send and answers them with `answer`. */
function fakeClient(answerRequest: (request: ProtocolRequest) => unknown = () => ({})) {
  const requests: ProtocolRequest[] = [];
  const switches: string[] = [];
  const state = { sessionId: 'ses_1', messages: [...first, question, answer], pendingSend: null, run: null };
  const client: BranchClient = {
    getState: () => state as unknown as ClientState,
    async request<T>(request: ProtocolRequest) {
      requests.push(request);
      const body = answerRequest(request);
      if (body instanceof Error) throw body;
      return { status: 200, body: body as T, requestId: null };
    },
    async switchSession(sessionId: string) {
      switches.push(sessionId);
    },
  };
  return { client, requests, switches };
}

function show(client: BranchClient, message = answer): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  render(renderBranches(message, client, strings), host);
  return host;
}

async function until(check: () => boolean): Promise<void> {
  await expect.poll(check, { interval: 5 }).toBe(true);
}

describe('the branch actions of a turn (docs/client.md, "Branches")', () => {
  it('regenerates after the turn’s parent with its text, references and files, under one key, then shows the session', async () => {
    const { client, requests, switches } = fakeClient((request) =>
      request.method === 'GET' ? { agentVersionId: 'agv_7' } : { userMessageId: 'u10', runId: 'run_10' },
    );
    const host = show(client);
    expect(host.querySelector('.turn-versions > span')?.textContent).toBe('2 / 3');
    host.querySelector<HTMLButtonElement>('[data-action="regenerate"]')?.click();
    await until(() => switches.length === 1);
    const create = requests.find((request) => request.method === 'POST');
    expect(create).toMatchObject({ path: '/runs', attempts: 8 });
    expect(create?.headers?.['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(create?.body ?? '{}')).toEqual({
      sessionId: 'ses_1',
      agentVersionId: 'agv_7',
      parentMessageId: 'a1',
      input: {
        content: [{ type: 'text', text: 'Sum the file' }],
        contextRefs: [{ ref: 'doc:7', title: 'Q3' }],
        attachments: [{ attachmentId: 'att_1' }],
      },
    });
    expect(switches).toEqual(['ses_1']);
  });

  it('moves to the version before or after, and offers no move past the ends', async () => {
    const { client, requests, switches } = fakeClient();
    const host = show(client);
    host.querySelector<HTMLButtonElement>('[data-step="-1"]')?.click();
    await until(() => switches.length === 1);
    expect(requests.at(-1)).toMatchObject({ method: 'POST', path: '/sessions/ses_1/branch' });
    expect(JSON.parse(requests.at(-1)?.body ?? '{}')).toEqual({ messageId: 'u0' });
    const onFirst = fakeClient();
    const firstAnswer = first[1] as SnapshotMessage;
    const lone = show(onFirst.client, firstAnswer);
    expect(lone.querySelector('.turn-versions')).toBeNull();
  });

  it('keeps an edit’s text and shows the server’s reason when the send fails; an edit of the first question starts over', async () => {
    const refused = new AgentError({ code: 'RUN_ALREADY_ACTIVE', message: 'An answer is in progress.', status: 409 });
    const { client, requests } = fakeClient((request) =>
      request.method === 'GET' ? { agentVersionId: 'agv_7' } : refused,
    );
    const host = show(client, first[1]);
    const field = host.querySelector<HTMLTextAreaElement>('textarea[name="question"]') as HTMLTextAreaElement;
    expect(field.value).toBe('Hi');
    field.value = 'Hello there';
    host.querySelector<HTMLFormElement>('.turn-edit form')?.requestSubmit();
    await until(() => (host.querySelector('output')?.value ?? '') !== '');
    expect(host.querySelector('output')?.value).toBe('An answer is in progress.');
    expect(field.value).toBe('Hello there');
    const create = requests.find((request) => request.method === 'POST');
    expect(JSON.parse(create?.body ?? '{}')).toMatchObject({
      parentMessageId: null,
      input: { content: [{ type: 'text', text: 'Hello there' }] },
    });
  });
});
