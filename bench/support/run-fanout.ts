import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventEnvelope } from '../../src/core/protocol.ts';
import { createSseParser } from '../../src/core/sse/parse-sse-stream.ts';
import type { AgentHandler } from '../../src/server/create-agent-handler.ts';
import type { ObservabilityOptions } from '../../src/server/observability/create-observability.ts';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import type { RunEngine } from '../../src/server/runs/run-handle.ts';
import type { AgentStorage } from '../../src/server/storage/storage-port.ts';

/** What one fan-out measured. */
export interface FanoutResult {
  delivered: number;
  seconds: number;
  p50: number;
  p99: number;
  /** The run ids, for what the caller measures afterwards. */
  runIds: string[];
  handler: AgentHandler;
}

/** The headers of the bench identity on every request. */
export const FANOUT_HEADERS = {
  'agent-protocol': '1',
  'x-agent-identity': 'idn_bench',
  'content-type': 'application/json',
};

/** The header that names the subject of a request (default `bench`); its identity is `idn_<subject>`. */
export const SUBJECT_HEADER = 'x-bench-subject';

/** The headers of a request of `subject` and its identity (the bench identity when none is given). */
function headersOf(subject: string | undefined): Record<string, string> {
  if (subject === undefined) return FANOUT_HEADERS;
  return { ...FANOUT_HEADERS, 'x-agent-identity': `idn_${subject}`, [SUBJECT_HEADER]: subject };
}

/**
 * Creates the fan-out engine: each run waits for `release()`, then appends a status, a message
 * start, `deltas` text deltas every `intervalMs`, the message end and the terminal event.
 */
export function createFanoutEngine(options: { deltas: number; intervalMs: number }): {
  engine: RunEngine;
  release: () => void;
} {
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
      for (let i = 0; i < options.deltas; i += 1) {
        await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: `token ${i} ` });
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
      }
      await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
      await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    },
  };
  return { engine, release: () => release() };
}

/**
 * Creates the handler of the fan-out: one identity opens every run and every stream here, so its
 * per-identity rates, concurrency and stream cap are lifted (a capped identity's oldest streams
 * would be closed early), and so are the caps per network client and in all (docs/server.md, "Overload").
 */
export function createFanoutHandler(options: {
  engine: RunEngine;
  storage?: AgentStorage;
  maxStreams: number;
  /** Metrics, traces and logs of the handler (docs/operations.md). Default: none. */
  observability?: ObservabilityOptions;
}): AgentHandler {
  const unlimited = 1_000_000;
  return createAgentHandler({
    engine: options.engine,
    authenticate: (request) => ({ id: String(request.headers[SUBJECT_HEADER] ?? 'bench') }),
    identityFor: (subject) => `idn_${subject.id}`,
    limits: { runsPerMinute: unlimited, maxActiveRuns: unlimited, readsPerMinute: unlimited },
    maxStreamsPerIdentity: options.maxStreams,
    // Every reader comes from loopback: the per-client and server-wide caps are lifted too.
    maxConnections: unlimited,
    edgeLimits: {
      maxConnectionsPerClient: unlimited,
      maxStreams: unlimited,
      maxStreamsPerClient: unlimited,
      maxLiveRuns: unlimited,
      maxLiveRunsPerClient: unlimited,
      shedAtEventLoopUtilization: Number.POSITIVE_INFINITY,
    },
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...options.observability,
  });
}

/**
 * Creates `count` runs through `base` (`…/api/agent/v1`), run `i` as `subjectOf(i)` (default: all
 * as the bench identity), and returns their ids.
 */
export async function createFanoutRuns(
  base: string,
  count: number,
  subjectOf: (index: number) => string | undefined = () => undefined,
): Promise<string[]> {
  const runIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`${base}/runs`, {
      method: 'POST',
      headers: { ...headersOf(subjectOf(i)), 'idempotency-key': `bench-run-${i}-${Date.now()}-xyz` },
      body: JSON.stringify({ agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: `run ${i}` }] } }),
    });
    runIds.push(((await response.json()) as { runId: string }).runId);
  }
  return runIds;
}

/**
 * Attaches one SSE reader per stream (after seq 1), calls `release` once every reader is open,
 * and measures the append-to-delivery latency (envelope `timestamp` to receipt) of every event
 * until the streams end. Rejects when fewer than `expected` events arrived (a stream ended early).
 */
export async function measureFanout(options: {
  /** Each stream's server, run and the subject that reads it (the bench identity when none is given). */
  streams: readonly { base: string; runId: string; subject?: string }[];
  release: () => void | Promise<void>;
  expected: number;
}): Promise<Omit<FanoutResult, 'runIds' | 'handler'>> {
  const { streams } = options;
  const latencies: number[] = [];
  let delivered = 0;
  let opened = 0;
  let allOpen: () => void = () => {};
  const everyReaderOpen = new Promise<void>((resolve) => {
    allOpen = resolve;
  });
  const readers = streams.map(async ({ base, runId, subject }) => {
    const parser = createSseParser({
      onFrame: (frame) => {
        const event = JSON.parse(frame.data) as EventEnvelope;
        latencies.push(Date.now() - event.timestamp);
        delivered += 1;
      },
      onComment: (text) => {
        opened += text === 'open' ? 1 : 0;
        if (opened === streams.length) allOpen();
      },
    });
    // node:http rather than fetch: one plain socket per reader, no per-origin pool limit.
    await new Promise<void>((resolve, reject) => {
      get(`${base}/runs/${runId}/events?after=1`, { headers: headersOf(subject) }, (response) => {
        response.on('data', (chunk: Buffer) => parser.push(chunk));
        response.on('end', resolve);
        response.on('error', reject);
      }).on('error', reject);
    });
  });
  // Measure live tailing only: every reader is attached before the first delta is appended.
  await everyReaderOpen;
  const started = Date.now();
  await options.release();
  await Promise.all(readers);
  const seconds = (Date.now() - started) / 1000;
  if (delivered !== options.expected) {
    throw new Error(`delivered ${delivered} events, expected ${options.expected}: a stream ended early`);
  }
  latencies.sort((a, b) => a - b);
  const percentile = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { delivered, seconds, p50: percentile(50), p99: percentile(99) };
}

/**
 * Runs the fan-out workload once on loopback in this process: `runs` concurrent runs, one SSE
 * reader attached to each before the engine appends `deltas` text deltas per run every
 * `intervalMs`. The handler is left open (closed by `close()` on the result) so the caller can
 * inspect its storage.
 */
export async function runFanout(options: {
  storage?: AgentStorage;
  runs: number;
  deltas: number;
  intervalMs: number;
  observability?: ObservabilityOptions;
}): Promise<FanoutResult & { close(): Promise<void> }> {
  const { runs, deltas, intervalMs } = options;
  const { engine, release } = createFanoutEngine({ deltas, intervalMs });
  const handler = createFanoutHandler({
    engine,
    maxStreams: runs,
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.observability === undefined ? {} : { observability: options.observability }),
  });
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/v1`;
  const runIds = await createFanoutRuns(base, runs);
  const measured = await measureFanout({
    streams: runIds.map((runId) => ({ base, runId })),
    release,
    expected: runs * (deltas + 4),
  });
  return {
    ...measured,
    runIds,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Reads `--name <number>` from the command line, or `fallback`. */
export function readFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index < 0 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
