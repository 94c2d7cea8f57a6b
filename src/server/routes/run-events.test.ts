import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope, RunResource, RunSnapshot } from '../../core/protocol.ts';
import { createEmptyRunSnapshot, reduceRun, reduceRunEvents } from '../../core/state/run-reducer.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { readSse, startTestServer } from '../test-support/start-test-server.ts';

const engine = createManualEngine();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ engine, stream: { heartbeatSec: 0.05, retryMs: 1500 } });
});
afterAll(() => server.close());

/** A finished run of 11 events; `snapshots[k]` is the server's `GET /runs/{id}` after seq k. */
async function finishedRun(): Promise<{ runId: string; all: EventEnvelope[]; snapshots: RunSnapshot[] }> {
  const { runId } = await server.createRun('alice', 'Tell me');
  const handle = await engine.handleOf(runId);
  const snapshots: RunSnapshot[] = [];
  const capture = async (): Promise<void> => {
    const resource = (await (await server.request(`/runs/${runId}`)).json()) as RunResource;
    snapshots[resource.lastSeq] = {
      ...resource,
      createdAt: Date.parse(resource.createdAt),
      updatedAt: Date.parse(resource.updatedAt),
    };
  };
  const steps: (() => Promise<unknown>)[] = [
    () => handle.append('RUN_STATUS_CHANGED', { status: 'running' }),
    () => handle.append('REASONING_MESSAGE_START', { messageId: 'msg_r', role: 'reasoning' }),
    () => handle.append('REASONING_MESSAGE_CONTENT', { messageId: 'msg_r', delta: 'Thinking' }),
    () => handle.append('REASONING_MESSAGE_END', { messageId: 'msg_r' }),
    () => handle.append('TEXT_MESSAGE_START', { messageId: 'msg_a', role: 'assistant' }),
    () => handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a', delta: 'One ' }),
    () => handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a', delta: 'two ' }),
    () => handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a', delta: 'three.' }),
    () => handle.append('TEXT_MESSAGE_END', { messageId: 'msg_a', finishReason: 'stop' }),
    () => handle.append('RUN_FINISHED', { outcome: { type: 'success' } }),
  ];
  await capture();
  for (const step of steps) {
    await step();
    await capture();
  }
  const all = (await readSse(await server.request(`/runs/${runId}/events`))).events;
  return { runId, all, snapshots };
}

describe('GET /runs/{id}/events', () => {
  it('cut anywhere: for every k the tail after k is the log tail, and reduce(prefix) + tail = final', async () => {
    const { runId, all, snapshots } = await finishedRun();
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const final = reduceRunEvents(all);
    expect(snapshots[11]).toEqual(final);
    for (let k = 0; k <= all.length; k += 1) {
      const response = await server.request(`/runs/${runId}/events?after=${k}`);
      expect(response.status).toBe(k === all.length ? 204 : 200);
      const tail = k === all.length ? [] : (await readSse(response)).events;
      expect(tail).toEqual(all.slice(k));
      const start = k === 0 ? createEmptyRunSnapshot(runId, final.sessionId) : (snapshots[k] as RunSnapshot);
      expect(start.resumeCursor).toBe(String(k));
      expect(tail.reduce((snapshot, event) => reduceRun(snapshot, event), start)).toEqual(final);
    }
    const resource = (await (await server.request(`/runs/${runId}`)).json()) as {
      lastSeq: number;
      resumeCursor: string;
    };
    expect(resource.lastSeq).toBe(11);
    expect(resource.resumeCursor).toBe('11');
  });

  it('overlap: applying a replay that repeats seen events changes nothing (dedupe by seq)', async () => {
    const { runId, all } = await finishedRun();
    const atSix = reduceRunEvents(all.slice(0, 6));
    const overlap = (await readSse(await server.request(`/runs/${runId}/events?after=3`))).events;
    const applied = overlap.reduce((snapshot, event) => reduceRun(snapshot, event), atSix);
    expect(applied).toEqual(reduceRunEvents(all));
    expect(new Set(all.map((e) => e.eventId)).size).toBe(all.length);
  });

  it('Last-Event-ID beats ?after', async () => {
    const { runId, all } = await finishedRun();
    const response = await server.request(`/runs/${runId}/events?after=2`, { headers: { 'last-event-id': '8' } });
    expect((await readSse(response)).events).toEqual(all.slice(8));
  });

  it('answers 204 at the terminal cursor, 410 past the log or into a compacted one, 400 for a malformed cursor', async () => {
    const { runId } = await finishedRun();
    const atEnd = await server.request(`/runs/${runId}/events?after=11`);
    expect(atEnd.status).toBe(204);
    expect(await atEnd.text()).toBe('');
    const ahead = await server.request(`/runs/${runId}/events`, { headers: { 'last-event-id': '12' } });
    expect(ahead.status).toBe(410);
    expect(((await ahead.json()) as { code: string }).code).toBe('CURSOR_EXPIRED');
    for (const bad of ['abc', '-1', '01', '1.5', '9999999999999999999']) {
      const response = await server.request(`/runs/${runId}/events?after=${encodeURIComponent(bad)}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('CURSOR_INVALID');
    }
    await server.handler.storage.compactEndedRuns(Number.MAX_SAFE_INTEGER, 100);
    expect((await server.handler.storage.getRun(runId))?.isCompacted).toBe(true);
    const compacted = await server.request(`/runs/${runId}/events?after=3`);
    expect(compacted.status).toBe(410);
    expect(((await compacted.json()) as { code: string }).code).toBe('CURSOR_EXPIRED');
    expect((await server.request(`/runs/${runId}/events?after=10`)).status).toBe(410);
    expect((await server.request(`/runs/${runId}/events?after=11`)).status).toBe(204);
    const snapshot = (await (await server.request(`/runs/${runId}`)).json()) as { lastSeq: number };
    expect(snapshot.lastSeq).toBe(11);
  });

  it('tails live events from the log, sends heartbeats in silence, and closes after the terminal event', async () => {
    const { runId } = await server.createRun('alice', 'Live');
    const handle = await engine.handleOf(runId);
    const response = await server.request(`/runs/${runId}/events?after=0`);
    expect(response.headers.get('x-run-last-seq')).toBe('1');
    let step = 0;
    const read = await readSse(response, (sofar) => {
      // Each heartbeat while the run is quiet drives the next write.
      if (sofar.comments.filter((c) => c.startsWith('hb ')).length > step && step < 2) {
        step += 1;
        void (step === 1
          ? handle.append('RUN_STATUS_CHANGED', { status: 'running' })
          : handle.append('RUN_FINISHED', { outcome: { type: 'success' } }));
      }
      return false;
    });
    expect(read.text.startsWith('retry: 1500\n: open\n\n')).toBe(true);
    expect(read.events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_STATUS_CHANGED', 'RUN_FINISHED']);
    expect(read.comments[0]).toBe('open');
    expect(read.comments.slice(1).every((c) => /^hb \d{13}$/.test(c))).toBe(true);
    expect(read.comments.length).toBeGreaterThanOrEqual(3);
  });

  it('closes the body at maxStreamDurationSec so the client resumes from its cursor', async () => {
    const short = await startTestServer({
      engine: createManualEngine(),
      stream: { heartbeatSec: 10, maxStreamDurationSec: 0.1 },
    });
    try {
      const { runId } = await short.createRun('alice');
      const read = await readSse(await short.request(`/runs/${runId}/events`));
      expect(read.events.map((e) => e.type)).toEqual(['RUN_STARTED']);
      expect(read.comments).toEqual(['open']);
    } finally {
      await short.close();
    }
  });
});
