import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventEnvelope } from '../src/core/protocol.ts';
import { createSseParser } from '../src/core/sse/parse-sse-stream.ts';
import { createAgentHandler } from '../src/server/create-agent-handler.ts';
import type { RunEngine } from '../src/server/runs/run-handle.ts';

// `npm run bench:server-fanout -- --runs 200 --deltas 50`: N concurrent runs, one SSE reader each,
// on loopback. Prints delivered events/s and append-to-delivery latency; the last line is the figure.
const runs = readFlag('--runs', 200);
const deltas = readFlag('--deltas', 50);
const intervalMs = readFlag('--interval-ms', 5);

let release: () => void = () => {};
const go = new Promise<void>((resolve) => {
  release = resolve;
});
const engine: RunEngine = {
  async start(handle) {
    await go;
    await handle.append('RUN_STATUS_CHANGED', { status: 'running' });
    const messageId = `msg_${handle.runId}`;
    await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
    for (let i = 0; i < deltas; i += 1) {
      await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: `token ${i} ` });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  },
};

// One identity opens every run here, so its per-identity rate and concurrency limits are lifted.
const unlimited = 1_000_000;
const handler = createAgentHandler({
  engine,
  authenticate: () => ({ id: 'bench' }),
  identityFor: () => 'idn_bench',
  limits: { runsPerMinute: unlimited, maxActiveRuns: unlimited, readsPerMinute: unlimited },
});
const server = createServer((req, res) => handler(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/v1`;
const headers = { 'agent-protocol': '1', 'x-agent-identity': 'idn_bench', 'content-type': 'application/json' };

const runIds: string[] = [];
for (let i = 0; i < runs; i += 1) {
  const response = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `bench-run-${i}-${Date.now()}-xyz` },
    body: JSON.stringify({ agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: `run ${i}` }] } }),
  });
  runIds.push(((await response.json()) as { runId: string }).runId);
}

const latencies: number[] = [];
let delivered = 0;
let opened = 0;
let allOpen: () => void = () => {};
const everyReaderOpen = new Promise<void>((resolve) => {
  allOpen = resolve;
});
const readers = runIds.map(async (runId) => {
  const parser = createSseParser({
    onFrame: (frame) => {
      const event = JSON.parse(frame.data) as EventEnvelope;
      latencies.push(Date.now() - event.timestamp);
      delivered += 1;
    },
    onComment: (text) => {
      opened += text === 'open' ? 1 : 0;
      if (opened === runs) allOpen();
    },
  });
  // node:http rather than fetch: one plain socket per reader, no per-origin pool limit.
  await new Promise<void>((resolve, reject) => {
    get(`${base}/runs/${runId}/events?after=1`, { headers }, (response) => {
      response.on('data', (chunk: Buffer) => parser.push(chunk));
      response.on('end', resolve);
      response.on('error', reject);
    }).on('error', reject);
  });
});
// Measure live tailing only: every reader is attached before the first delta is appended.
await everyReaderOpen;
const started = Date.now();
release();
await Promise.all(readers);
const seconds = (Date.now() - started) / 1000;

latencies.sort((a, b) => a - b);
const percentile = (p: number): number =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(`runs ${runs}, events per run ${deltas + 4} after the cursor, delta interval ${intervalMs} ms`);
console.log(`delivered ${delivered} events in ${seconds.toFixed(2)} s`);
console.log(`append-to-delivery latency p50 ${percentile(50)} ms, p99 ${percentile(99)} ms`);
await handler.close();
server.closeAllConnections();
server.close();
console.log(
  `server-fanout: ${Math.round(delivered / seconds)} events/s to ${runs} SSE readers, p50 ${percentile(50)} ms, p99 ${percentile(99)} ms`,
);

function readFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index < 0 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
