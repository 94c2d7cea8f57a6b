import { describe, expect, it } from 'vitest';
import type { EventEnvelope, RunResource } from '../protocol.ts';
import { createSystemClock } from '../clock.ts';
import { createHttpTransport } from '../transport/http-transport.ts';
import type { ResumeLoopPhase } from './resume-loop.ts';
import { runResumeLoop } from './resume-loop.ts';

type Reply = () => Response;

function event(seq: number, type = 'TEXT_MESSAGE_CONTENT'): EventEnvelope {
  const data = type === 'RUN_FINISHED' ? { outcome: { type: 'success' } } : { messageId: 'msg_a', delta: `d${seq}` };
  return {
    v: 1,
    eventId: `evt_${seq}`,
    runId: 'run_1',
    sessionId: 'ses_1',
    seq,
    cursor: String(seq),
    type,
    timestamp: 1000 + seq,
    data,
  } as EventEnvelope;
}

function frames(events: readonly EventEnvelope[]): string {
  return `retry: 3000\n: open\n\n${events.map((e) => `id: ${e.cursor}\ndata: ${JSON.stringify(e)}\n\n`).join('')}`;
}

function sse(text: string, options: { isHanging?: boolean } = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      if (!options.isHanging) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function problem(status: number, code: string): Response {
  return new Response(
    JSON.stringify({ type: 'about:blank', title: code, status, code, requestId: 'req_1', retryable: status >= 500 }),
    {
      status,
      headers: { 'content-type': 'application/problem+json' },
    },
  );
}

function snapshot(lastSeq: number, status: RunResource['status'] = 'running'): Response {
  const body = { runId: 'run_1', sessionId: 'ses_1', status, lastSeq, resumeCursor: String(lastSeq), messages: [] };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

/** Runs the loop against scripted replies; returns what it requested and what it applied. */
async function follow(replies: Reply[], start = { lastSeq: 0, cursor: '0' }) {
  const requests: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    requests.push(`${url.pathname}${lastEventId === null ? '' : ` Last-Event-ID=${lastEventId}`}`);
    const reply = replies.shift();
    if (reply === undefined) throw new Error('no more scripted replies');
    return reply();
  };
  const applied: number[] = [];
  const snapshots: number[] = [];
  const phases: ResumeLoopPhase[] = [];
  const transport = createHttpTransport({ endpoint: 'http://test.local/api/agent', fetch, random: () => 0 });
  const outcome = await runResumeLoop({
    transport,
    runId: 'run_1',
    start,
    onEvent: (e) => applied.push(e.seq),
    onSnapshot: (s) => snapshots.push(s.lastSeq),
    onPhase: (phase) => phases.push(phase),
    idleTimeoutMs: 40,
    clock: createSystemClock(),
    random: () => 0,
    signal: new AbortController().signal,
  }).then(
    () => 'terminal',
    (error: { code: string }) => error.code,
  );
  return { outcome, requests, applied, snapshots, phases };
}

describe('runResumeLoop', () => {
  it('drops replayed events after a clean close and resumes from the last cursor', async () => {
    const result = await follow([
      () => sse(frames([event(1), event(2), event(3)])),
      () => sse(frames([event(2), event(3), event(4), event(5, 'RUN_FINISHED')])),
    ]);
    expect(result).toEqual({
      outcome: 'terminal',
      requests: ['/api/agent/v1/runs/run_1/events Last-Event-ID=0', '/api/agent/v1/runs/run_1/events Last-Event-ID=3'],
      applied: [1, 2, 3, 4, 5],
      snapshots: [],
      phases: ['connecting', 'streaming', 'reconnecting', 'streaming'],
    });
  });

  it('heals a sequence gap from the snapshot and continues from its resume cursor', async () => {
    const result = await follow([
      () => sse(frames([event(1), event(3)])),
      () => snapshot(3),
      () => sse(frames([event(4, 'RUN_FINISHED')])),
    ]);
    expect(result.requests).toEqual([
      '/api/agent/v1/runs/run_1/events Last-Event-ID=0',
      '/api/agent/v1/runs/run_1',
      '/api/agent/v1/runs/run_1/events Last-Event-ID=3',
    ]);
    expect(result.applied).toEqual([1, 4]);
    expect(result.snapshots).toEqual([3]);
  });

  it('falls back to the snapshot on 410 and stops when the snapshot is terminal', async () => {
    const result = await follow([() => problem(410, 'CURSOR_EXPIRED'), () => snapshot(9, 'completed')], {
      lastSeq: 2,
      cursor: '2',
    });
    expect(result).toMatchObject({ outcome: 'terminal', applied: [], snapshots: [9] });
    expect(result.requests).toEqual(['/api/agent/v1/runs/run_1/events Last-Event-ID=2', '/api/agent/v1/runs/run_1']);
  });

  it('treats 204 as the end of the run', async () => {
    const result = await follow([() => new Response(null, { status: 204 })], { lastSeq: 7, cursor: '7' });
    expect(result).toMatchObject({
      outcome: 'terminal',
      applied: [],
      requests: ['/api/agent/v1/runs/run_1/events Last-Event-ID=7'],
    });
  });

  it('stops on 404 and identity changes without asking again', async () => {
    expect(await follow([() => problem(404, 'NOT_FOUND')])).toMatchObject({
      outcome: 'NOT_FOUND',
      requests: ['/api/agent/v1/runs/run_1/events Last-Event-ID=0'],
    });
    expect(await follow([() => problem(409, 'IDENTITY_CHANGED')])).toMatchObject({
      outcome: 'IDENTITY_CHANGED',
      applied: [],
    });
  });

  it('backs off after a 503 and then resumes', async () => {
    const result = await follow([
      () => problem(503, 'AGENT_UNAVAILABLE'),
      () => sse(frames([event(1), event(2, 'RUN_FINISHED')])),
    ]);
    expect(result).toMatchObject({ outcome: 'terminal', applied: [1, 2] });
    expect(result.phases).toEqual(['connecting', 'reconnecting', 'streaming']);
  });

  it('aborts a silent stream after the idle timeout and reconnects from its cursor', async () => {
    const result = await follow([
      () => sse(frames([event(1)]), { isHanging: true }),
      () => sse(frames([event(2, 'RUN_FINISHED')])),
    ]);
    expect(result.requests).toEqual([
      '/api/agent/v1/runs/run_1/events Last-Event-ID=0',
      '/api/agent/v1/runs/run_1/events Last-Event-ID=1',
    ]);
    expect(result.applied).toEqual([1, 2]);
  });

  it('resyncs on a frame that is not an event envelope', async () => {
    const result = await follow([
      () => sse(`${frames([event(1)])}data: {"seq":"two"}\n\n`),
      () => snapshot(2),
      () => sse(frames([event(3, 'RUN_FINISHED')])),
    ]);
    expect(result).toMatchObject({ outcome: 'terminal', applied: [1, 3], snapshots: [2] });
  });
});
