import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import type { RunEngine } from '../../src/server/runs/run-handle.ts';
import { createFakeClock } from '../../test/support/fake-clock.ts';

// The server side of bench/memory-per-run.ts, in its own process so its RSS is the server's alone.
// Run with `node --expose-gc --import tsx`. Prints `{"port":…}` on its first stdout line, then serves
// the handler plus two bench routes: GET /bench/memory (after a full GC) and POST /bench/advance?ms=
// (moves the handler's clock, firing its sweeper, and waits for the sweep).
const deltas = Number(process.env.BENCH_DELTAS ?? 20);
const deltaText = 'a word or two of answer '; // 24 characters, like a coalesced model delta

const engine: RunEngine = {
  async start(handle) {
    await handle.append('RUN_STATUS_CHANGED', { status: 'running' });
    const messageId = `msg_answer_${handle.runId}`;
    await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
    for (let i = 0; i < deltas; i += 1) await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: deltaText });
    await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  },
};

const clock = createFakeClock(Date.now());
const unlimited = 1_000_000;
const handler = createAgentHandler({
  engine,
  clock,
  authenticate: (req) => {
    const user = req.headers['x-bench-user'];
    return typeof user === 'string' ? { id: user } : null;
  },
  identityFor: (subject) => `idn_${subject.id}`,
  // The benchmark is one client creating 10,000 runs as fast as it can: rates off, retention as shipped.
  limits: { runsPerMinute: unlimited, readsPerMinute: unlimited },
});

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/bench/memory') {
    void measure().then((figures) => res.end(JSON.stringify(figures)));
    return;
  }
  if (url.pathname === '/bench/advance') {
    void advance(Number(url.searchParams.get('ms')))
      .then(measure)
      .then((figures) => res.end(JSON.stringify(figures)));
    return;
  }
  handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => {
  void handler.close().then(() => process.exit(0));
});

async function measure(): Promise<{ rss: number; heapUsed: number; sessions: number; runs: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed, ...(await handler.store.counts()) };
}

// The sweeper (the only timer here) runs once per minute and schedules its next turn when a sweep
// is done; a timer reads the time it was due. So: jump to a minute before the target, wait for the
// sweep that fired to finish, then step the last minute, so one whole sweep runs at the target time.
async function advance(ms: number): Promise<void> {
  clock.advance(Math.max(0, ms - 60_000));
  await untilSweeperScheduled();
  clock.advance(60_000);
  await untilSweeperScheduled();
}

async function untilSweeperScheduled(): Promise<void> {
  while (clock.pendingCount() === 0) await new Promise((resolve) => setImmediate(resolve));
}
