import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core';
import { EventType } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';

/** A real AG-UI agent over HTTP for tests: `POST /` with a `RunAgentInput`, SSE out, encoded by `@ag-ui/encoder`. */
export interface AgUiTestAgent {
  url: string;
  /** Every `RunAgentInput` received, in order. */
  inputs: RunAgentInput[];
  /** The request headers of each of them. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Options of {@link startAgUiTestAgent}. */
export interface AgUiTestAgentOptions {
  /** Pause between two streamed deltas, in ms (default 2). */
  delayMs?: number;
  /** How many words `slow` streams (default 200). */
  slowWords?: number;
}

/** The words the `slow` scenario streams, one per delta: `w1 w2 … wN ` (a reload test checks them in order). */
export function slowAgentWords(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `w${index + 1} `);
}

/**
 * Starts the agent on 127.0.0.1. It picks a scenario from the last message: a user message names
 * one (`text`, `reasoning`, `agent tool`, `state`, `error`, `slow`, `client tool <name> <json
 * args>`), and a `tool` message (the result of a call it left to its client) is answered with
 * `Result of <toolCallId>: <content>` (or `… failed: <error>`).
 */
export async function startAgUiTestAgent(options: AgUiTestAgentOptions = {}): Promise<AgUiTestAgent> {
  const delayMs = options.delayMs ?? 2;
  const slowWords = options.slowWords ?? 200;
  const inputs: RunAgentInput[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const input = JSON.parse(body) as RunAgentInput;
      inputs.push(input);
      headers.push(req.headers);
      const encoder = new EventEncoder({ accept: req.headers.accept ?? 'text/event-stream' });
      res.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-store' });
      let isClosed = false;
      res.on('close', () => {
        isClosed = true;
      });
      const send = async (event: BaseEvent, pause = 0): Promise<void> => {
        if (isClosed) return;
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
        res.write(encoder.encodeSSE(event));
      };
      const { threadId, runId } = input;
      await send({ type: EventType.RUN_STARTED, threadId, runId });
      const finished = await playScenario(input, { send, delayMs, slowWords });
      if (finished) await send({ type: EventType.RUN_FINISHED, threadId, runId });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    inputs,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Send = (event: BaseEvent, pause?: number) => Promise<void>;

/** Plays the scenario; resolves false when it ended the run itself (`RUN_ERROR`). */
async function playScenario(
  input: RunAgentInput,
  context: { send: Send; delayMs: number; slowWords: number },
): Promise<boolean> {
  const { send, delayMs } = context;
  const say = async (messageId: string, deltas: readonly string[]): Promise<void> => {
    await send({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
    for (const delta of deltas) await send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }, delayMs);
    await send({ type: EventType.TEXT_MESSAGE_END, messageId });
  };
  const last = input.messages.at(-1) as Message;
  if (last.role === 'tool') {
    const outcome =
      last.error === undefined ? `Result of ${last.toolCallId}: ` : `${last.toolCallId} failed (${last.error}): `;
    await say(`answer-${input.runId}`, [outcome, String(last.content)]);
    return true;
  }
  const text = typeof last.content === 'string' ? last.content : '';
  if (text === 'text') {
    await say('t1', ['Hello ', 'from ', 'the ', 'AG-UI ', 'agent.']);
  } else if (text === 'reasoning') {
    await send({ type: EventType.REASONING_START, messageId: 'r1' });
    await send({ type: EventType.REASONING_MESSAGE_START, messageId: 'r1', role: 'reasoning' });
    for (const delta of ['Thinking ', 'it ', 'over.'])
      await send({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: 'r1', delta }, delayMs);
    await send({ type: EventType.REASONING_MESSAGE_END, messageId: 'r1' });
    await send({ type: EventType.REASONING_END, messageId: 'r1' });
    await say('t1', ['Thought ', 'through.']);
  } else if (text === 'agent tool') {
    await say('t1', ['Let me look.']);
    await send({
      type: EventType.TOOL_CALL_START,
      toolCallId: 'agent-call-1',
      toolCallName: 'weather.lookup',
      parentMessageId: 't1',
    });
    await send({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'agent-call-1', delta: '{"city":' }, delayMs);
    await send({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'agent-call-1', delta: '"Oslo"}' }, delayMs);
    await send({ type: EventType.TOOL_CALL_END, toolCallId: 'agent-call-1' });
    await send({
      type: EventType.TOOL_CALL_RESULT,
      messageId: 'tool-result-1',
      toolCallId: 'agent-call-1',
      content: '{"sky":"clear"}',
    });
    await say('t2', ['It is ', 'clear in Oslo.']);
  } else if (text === 'state') {
    await send({ type: EventType.STATE_SNAPSHOT, snapshot: { steps: [], count: 0 } });
    await send({
      type: EventType.STATE_DELTA,
      delta: [
        { op: 'replace', path: '/count', value: 1 },
        { op: 'add', path: '/steps/-', value: 'planned' },
      ],
    });
    await say('t1', ['State ', 'updated.']);
  } else if (text === 'error') {
    await send({ type: EventType.TEXT_MESSAGE_START, messageId: 't1', role: 'assistant' });
    await send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: 't1', delta: 'Partial answer' }, delayMs);
    await send({ type: EventType.RUN_ERROR, message: 'upstream exploded: secret-token-123', code: 'AGENT_CRASHED' });
    return false;
  } else if (text === 'slow') {
    await say('t1', slowAgentWords(context.slowWords));
  } else if (text.startsWith('client tool ')) {
    const [, , name = '', ...rest] = text.split(' ');
    await say('t1', [`Calling ${name}.`]);
    await send({
      type: EventType.TOOL_CALL_START,
      toolCallId: `client-call-${input.runId}`,
      toolCallName: name,
      parentMessageId: 't1',
    });
    await send({ type: EventType.TOOL_CALL_ARGS, toolCallId: `client-call-${input.runId}`, delta: rest.join(' ') });
    await send({ type: EventType.TOOL_CALL_END, toolCallId: `client-call-${input.runId}` });
  } else {
    await say('t1', [`You said: ${text}`]);
  }
  return true;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
