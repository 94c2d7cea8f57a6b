import type { AddressInfo } from 'node:net';
import { createSseParser } from '../src/core/sse/parse-sse-stream.ts';
import type { EventEnvelope } from '../src/core/protocol.ts';
import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { DEFAULT_ENGINE_LIMITS } from '../src/server/agent-loop/engine-options.ts';
import { countRequestChars } from '../src/server/agent-loop/token-estimate.ts';
import { createAgentHandler } from '../src/server/create-agent-handler.ts';
import { createAgentHttpServer } from '../src/server/http/create-agent-http-server.ts';
import type { ModelAdapter, ModelRequest } from '../src/server/models/model-adapter.ts';
import { createScriptedModel } from '../src/server/models/scripted-model.ts';
import { createDemoTools } from '../src/server/tools/demo-tools.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatTable } from './support/format-table.ts';
import { readFlag } from './support/run-fanout.ts';

// `npm run bench:long-conversation -- --turns 500`: one session of N turns over loopback against
// the real handler and agent loop (in-memory storage, the scripted model without delays, the demo
// tools). Every other turn is `/tool`, so the history holds tool calls with their results. Per
// sampled turn it prints the create-to-end time and what the last model request of the turn held
// (messages, characters, the prompt tokens the model reported against the budget, earlier turns
// left out), then asks `/context`. The scripted model reports characters / 4 of message text
// (no framing, no tool list), so the engine's estimate calibrates to it after the first call. The last
// line is the figure: the N-th turn still answers within the budget, and how long it took.

const turns = readFlag('--turns', 500);
const SAMPLES = new Set([1, 10, 50, 100, 200, 300, 400, turns]);

/** What the engine sent the model, per request, and the prompt tokens the model reported for it. */
interface RequestSeen {
  messages: number;
  chars: number;
  leftOut: number;
  promptTokens: number;
}
const seen: RequestSeen[] = [];
const scripted = createScriptedModel({ delayMs: 0 });
const model: ModelAdapter = {
  id: scripted.id,
  async *stream(request: ModelRequest, signal: AbortSignal) {
    const note = request.messages.find((m) => m.role === 'system' && m.layer === 'history_note');
    const leftOut = note === undefined ? 0 : Number(/(\d+) earlier turn/.exec(note.content)?.[1] ?? 0);
    const entry = {
      messages: request.messages.length,
      chars: countRequestChars(request.messages, request.tools),
      leftOut,
      promptTokens: 0,
    };
    seen.push(entry);
    for await (const chunk of scripted.stream(request, signal)) {
      if (chunk.type === 'usage') entry.promptTokens = chunk.usage.inputTokens;
      yield chunk;
    }
  },
};
const unlimited = 1_000_000;
const handler = createAgentHandler({
  engine: createRunEngine({ model, tools: createDemoTools({ stepMs: 0 }), log: () => undefined }),
  authenticate: (req) => (req.headers['x-bench-user'] === undefined ? null : { id: 'bench' }),
  identityFor: () => 'idn_bench',
  limits: { runsPerMinute: unlimited, readsPerMinute: unlimited },
});
const server = createAgentHttpServer((req, res) => handler(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/v1`;
const headers = { 'agent-protocol': '1', 'x-bench-user': 'bench', 'x-agent-identity': 'idn_bench' };

console.log(describeMachine());
let sessionId: string | undefined;
const rows: string[][] = [];
let lastMs = 0;
let lastEnd = '';
for (let turn = 1; turn <= turns + 1; turn += 1) {
  const text = turn > turns ? '/context' : turn % 2 === 0 ? '/tool' : `Question ${turn}: what is new?`;
  const requestsBefore = seen.length;
  const started = performance.now();
  const events = await send(text);
  const ms = performance.now() - started;
  const end = events.at(-1);
  lastEnd = end?.type === 'RUN_FINISHED' ? 'answered' : `${end?.type} ${JSON.stringify(end?.data)}`;
  if (lastEnd !== 'answered') throw new Error(`turn ${turn} did not answer: ${lastEnd}`);
  const request = seen.at(-1);
  if (turn <= turns) lastMs = ms;
  if (SAMPLES.has(turn) && request !== undefined) {
    rows.push([
      String(turn),
      formatMs(ms),
      String(seen.length - requestsBefore),
      String(request.messages),
      request.chars.toLocaleString('en-US'),
      `${request.promptTokens.toLocaleString('en-US')} / ${DEFAULT_ENGINE_LIMITS.tokenBudget.toLocaleString('en-US')}`,
      String(request.leftOut),
    ]);
  }
  if (turn > turns) {
    const answer = events
      .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
      .map((e) => (e.data as { delta: string }).delta)
      .join('');
    console.log(
      formatTable(
        [
          'turn',
          'create→end',
          'model calls',
          'messages sent',
          'characters',
          'reported prompt tokens / budget',
          'turns left out',
        ],
        rows,
      ),
    );
    console.log(`\n/context after ${turns} turns:\n${answer}\n`);
  }
}
await handler.close();
server.closeAllConnections();
server.close();
// The last request of turn N (the one before it is /context's).
const last = seen.at(-2);
console.log(
  `long-conversation: turn ${turns} of one session answered in ${formatMs(lastMs)}, its last request ${(last?.promptTokens ?? 0).toLocaleString('en-US')} of ${DEFAULT_ENGINE_LIMITS.tokenBudget.toLocaleString('en-US')} prompt tokens (as the model reported them) with ${last?.leftOut ?? 0} earlier turns left out (none failed TOKEN_BUDGET_EXCEEDED)`,
);

/** Creates a run with `text` in the session and reads its event stream to the end. */
async function send(text: string): Promise<EventEnvelope[]> {
  const created = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${crypto.randomUUID()}` },
    body: JSON.stringify({
      agentVersionId: 'agv_demo_1',
      ...(sessionId === undefined ? {} : { sessionId }),
      input: { content: [{ type: 'text', text }] },
    }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const body = (await created.json()) as { runId: string; sessionId: string };
  sessionId = body.sessionId;
  const stream = await fetch(`${base}/runs/${body.runId}/events`, { headers });
  const events: EventEnvelope[] = [];
  const parser = createSseParser({ onFrame: (frame) => events.push(JSON.parse(frame.data) as EventEnvelope) });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  return events;
}
