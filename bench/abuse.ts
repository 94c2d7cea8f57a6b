import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// Replays the floods of issue 26 at a bounded size against the real server on loopback, once with
// this branch's limits and once with them lifted (BENCH_LIMITS=off: only the 5,000 requests at once
// of before), and prints side by side what an ordinary user saw during each flood and the server's
// peak RSS. Every 127.x.y.z address is loopback on Linux, so the flood comes from 127.0.0.2 (or 20
// addresses 127.0.1.x, or 400 in 127.0.5-6.x) and the ordinary user from 127.0.0.9: they are
// different network clients. The user's time to its first successful create is printed too.
// Each flood is bounded in count; the ordinary user starts once it is in place (at most BUILD_UP_MS)
// and gives up after PROBE_TIMEOUT_MS, then the flood stops. `npm run bench:abuse [-- --only runs]`.

const BUILD_UP_MS = 15_000;
const PROBE_TIMEOUT_MS = 20_000;
const ORDINARY = '127.0.0.9';
const FLOODER = '127.0.0.2';
const readFlag = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const only = readFlag('--only');
// `--edge '{"maxLiveRuns":100}'` tries other edge limits on the "on" side.
const edgeLimits = readFlag('--edge') ?? '{}';

interface Server {
  port: number;
  child: ChildProcess;
}

/** Where the server under test keeps uploads: a fresh folder per run, removed at the end. */
let attachmentsDir = '';

async function startServer(mode: 'on' | 'off', mount: Flood['mount']): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./support/abuse-server.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        BENCH_LIMITS: mode,
        BENCH_EDGE_LIMITS: edgeLimits,
        BENCH_MOUNT: mount ?? 'node',
        BENCH_ATTACHMENTS_DIR: attachmentsDir,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [first] = (await once(lines, 'line')) as [string];
  return { port: (JSON.parse(first) as { port: number }).port, child };
}

async function stopServer(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await once(server.child, 'exit');
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from `localAddress` as `user`; `onData` sees an SSE body as it arrives. */
function send(
  server: Server,
  options: {
    localAddress: string;
    user: string;
    path: string;
    body?: unknown;
    onData?: (text: string) => void;
    timeoutMs?: number;
  },
): Promise<Answer> {
  return new Promise((resolve) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress: options.localAddress,
        agent: false,
        method: body === undefined ? 'GET' : 'POST',
        path: options.path,
        headers: {
          'x-bench-user': options.user,
          'x-agent-identity': `idn_${options.user}`,
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'idempotency-key': `abuse-${Math.random().toString(36).slice(2)}-key`,
              }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          options.onData?.(text);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.setTimeout(options.timeoutMs ?? PROBE_TIMEOUT_MS, () => req.destroy());
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end(body);
  });
}

function createBody(text: string): unknown {
  return { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } };
}

/**
 * What the ordinary user saw: time to its first successful create (`201`, after any refusals and
 * their Retry-After), to the first event after RUN_STARTED, to the end, and how it ended.
 */
interface Seen {
  createdMs: number | null;
  firstEventMs: number | null;
  doneMs: number | null;
  outcome: string;
}

/** An ordinary user sends one message (retrying a retryable refusal after its Retry-After) and reads the answer. */
async function ordinaryUser(server: Server): Promise<Seen> {
  const startedAt = performance.now();
  const deadline = startedAt + PROBE_TIMEOUT_MS;
  const refusals: string[] = [];
  const refused = (): Seen => ({
    createdMs: null,
    firstEventMs: null,
    doneMs: null,
    outcome: `refused (${refusals.join(', ')})`,
  });
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) return refused();
    const created = await send(server, {
      localAddress: ORDINARY,
      user: 'olivia',
      path: '/api/agent/v1/runs',
      body: createBody('Hello, what can you do?'),
      timeoutMs: left,
    });
    if (created.status !== 201) {
      refusals.push(String(created.status || 'no answer'));
      const retryAfter = Number(created.headers['retry-after'] ?? Number.NaN);
      if (!Number.isFinite(retryAfter)) return refused();
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      continue;
    }
    const createdMs = performance.now() - startedAt;
    const { runId } = JSON.parse(created.body) as { runId: string };
    let firstEventMs: number | null = null;
    const stream = await send(server, {
      localAddress: ORDINARY,
      user: 'olivia',
      path: `/api/agent/v1/runs/${runId}/events`,
      timeoutMs: Math.max(1, deadline - performance.now()),
      onData: (text) => {
        if (firstEventMs === null && /"seq":2\b/.test(text)) firstEventMs = performance.now() - startedAt;
      },
    });
    const terminal = /"type":"RUN_FINISHED"|"type":"RUN_ERROR".*?"code":"([A-Z_]+)"/s.exec(stream.body);
    const retried = refusals.length === 0 ? '' : ` after ${refusals.join(', ')}`;
    if (terminal === null)
      return { createdMs, firstEventMs, doneMs: null, outcome: `no end in ${PROBE_TIMEOUT_MS / 1000} s` };
    const outcome = terminal[1] === undefined ? 'finished' : `RUN_ERROR ${terminal[1]}`;
    return { createdMs, firstEventMs, doneMs: performance.now() - startedAt, outcome: `${outcome}${retried}` };
  }
}

function openSocket(server: Server, localAddress: string, sockets: Socket[]): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', () => resolve(null));
    socket.on('data', () => undefined);
    sockets.push(socket);
  });
}

/**
 * A flood: `run` builds up its load, calls `ready` once all of it is in place (the ordinary user
 * comes then), holds it until `signal` aborts and returns what it counted.
 */
interface Flood {
  name: string;
  /** `fetch-unnamed`: the fetch handler mounted without the client's address; else the Node adapter. */
  mount?: 'fetch-unnamed';
  run(server: Server, signal: AbortSignal, ready: () => void): Promise<string>;
}

/** Counts the statuses of many answers, e.g. `201×100 429×1900`. */
function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status || 'none'}×${count}`)
    .join(' ');
}

const floods: Flood[] = [
  {
    name: 'none (baseline)',
    async run(_server, signal, ready) {
      ready();
      await untilAborted(signal);
      return 'nothing sent';
    },
  },
  {
    name: 'pipelining: 33 sockets × 200 GET /bootstrap, closed at once',
    async run(server, _signal, ready) {
      const sockets: Socket[] = [];
      const request = `GET /api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nX-Bench-User: mallory\r\n\r\n`;
      await Promise.all(
        Array.from({ length: 33 }, async () => {
          const socket = await openSocket(server, FLOODER, sockets);
          socket?.write(request.repeat(200));
          socket?.destroy();
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      ready();
      const stats = await readStats(server);
      return `${stats.requests} slots still held`;
    },
  },
  {
    name: 'slow bodies: 5,000 from one identity, 1 byte a second',
    run: (server, signal, ready) => floodSlowBodies(server, { signal, ready, addresses: [FLOODER] }),
  },
  {
    name: 'slow bodies: 5,000 from one identity over 100 addresses',
    run: (server, signal, ready) =>
      floodSlowBodies(server, { signal, ready, addresses: Array.from({ length: 100 }, (_, i) => `127.0.2.${i + 1}`) }),
  },
  {
    name: 'slow bodies, a fetch mount without the client address: 5,000 from one identity',
    mount: 'fetch-unnamed',
    run: (server, signal, ready) => floodSlowBodies(server, { signal, ready, addresses: [FLOODER] }),
  },
  {
    name: 'streams: 500 identities × 10 streams on /slow runs',
    async run(server, signal, ready) {
      const sockets: Socket[] = [];
      const created = await Promise.all(
        Array.from({ length: 500 }, (_, index) =>
          send(server, {
            localAddress: FLOODER,
            user: `stream${index}`,
            path: '/api/agent/v1/runs',
            body: createBody('/slow'),
          }),
        ),
      );
      const opened: number[] = [];
      for (let index = 0; index < 500 && !signal.aborted; index += 1) {
        const answer = created[index] as Answer;
        const runId = answer.status === 201 ? (JSON.parse(answer.body) as { runId: string }).runId : 'run_none';
        for (let tab = 0; tab < 10; tab += 1) {
          const socket = await openSocket(server, FLOODER, sockets);
          socket?.once('data', (chunk: Buffer) => {
            opened.push(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1]));
          });
          socket?.write(
            `GET /api/agent/v1/runs/${runId}/events HTTP/1.1\r\nHost: x\r\nX-Bench-User: stream${index}\r\n\r\n`,
          );
        }
      }
      ready();
      await untilAborted(signal);
      const stats = await readStats(server);
      for (const socket of sockets) socket.destroy();
      return `runs ${tally(created.map((answer) => answer.status))}; streams ${tally(opened)}; ${stats.streams} open at the end`;
    },
  },
  {
    name: 'runs: 2,000 `/long 20000` from 400 identities',
    run: (server, signal, ready) => floodRuns(server, { signal, ready, addresses: [FLOODER] }),
  },
  {
    name: 'runs: the same from 20 network clients',
    run: (server, signal, ready) =>
      floodRuns(server, {
        signal,
        ready,
        addresses: Array.from({ length: 20 }, (_, index) => `127.0.1.${index + 1}`),
      }),
  },
  {
    name: 'runs: the same from 400 network clients, one identity each',
    run: (server, signal, ready) =>
      floodRuns(server, {
        signal,
        ready,
        addresses: Array.from(
          { length: 400 },
          (_, index) => `127.0.${5 + Math.floor(index / 200)}.${(index % 200) + 1}`,
        ),
      }),
  },
  {
    name: 'uploads: 32 uploaders of 10 MiB files from 4 addresses, back to back for 10 s and on',
    run: (server, signal, ready) => floodUploads(server, { signal, ready }),
  },
  {
    name: 'parked runs: 230 `/approval` runs from 30 addresses',
    run: (server, signal, ready) =>
      floodParkedRuns(server, {
        signal,
        ready,
        count: 230,
        addresses: Array.from({ length: 30 }, (_, index) => `127.0.3.${index + 1}`),
      }),
  },
  {
    name: 'runs, a fetch mount without the client address: 2,000 `/long 20000` from 400 identities',
    mount: 'fetch-unnamed',
    run: (server, signal, ready) => floodRuns(server, { signal, ready, addresses: [FLOODER] }),
  },
];

/** 5,000 creates of one identity whose bodies arrive a byte a second, from `addresses` in turn. */
async function floodSlowBodies(
  server: Server,
  options: { signal: AbortSignal; ready: () => void; addresses: string[] },
): Promise<string> {
  const { signal, ready, addresses } = options;
  const sockets: Socket[] = [];
  const head = [
    'POST /api/agent/v1/runs HTTP/1.1',
    'Host: x',
    'Content-Type: application/json',
    'Content-Length: 100000',
    'X-Bench-User: slow',
    'X-Agent-Identity: idn_slow',
    'Idempotency-Key: abuse-slow-body-key-0001',
    '',
    '{',
  ].join('\r\n');
  const refused: number[] = [];
  for (let index = 0; index < 5_000 && !signal.aborted; index += 1) {
    const socket = await openSocket(server, addresses[index % addresses.length] as string, sockets);
    socket?.on('data', (chunk: Buffer) => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1]);
      if (Number.isFinite(status)) refused.push(status);
    });
    socket?.write(head);
  }
  const drip = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(' ');
  }, 1_000);
  ready();
  await untilAborted(signal);
  clearInterval(drip);
  const stats = await readStats(server);
  for (const socket of sockets) socket.destroy();
  return `${sockets.length} sent, answered ${tally(refused) || 'none'}, ${stats.bodies} bodies held at the end`;
}

/** `count` runs that ask for an approval and wait, one identity each, from `addresses` in turn. */
async function floodParkedRuns(
  server: Server,
  options: { signal: AbortSignal; ready: () => void; addresses: string[]; count: number },
): Promise<string> {
  const { signal, ready, addresses, count } = options;
  const statuses: number[] = [];
  for (let start = 0; start < count && !signal.aborted; start += 20) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, (_, offset) =>
        send(server, {
          localAddress: addresses[(start + offset) % addresses.length] as string,
          user: `waiter${start + offset}`,
          path: '/api/agent/v1/runs',
          body: createBody('/approval'),
        }),
      ),
    );
    statuses.push(...answers.map((answer) => answer.status));
  }
  // The runs reach their approval within a second at the demo pace.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  ready();
  await untilAborted(signal);
  const stats = await readStats(server);
  return `${tally(statuses)}; ${stats.parkedRuns ?? 0} parked, ${stats.liveRuns} live at the end`;
}

/** 32 uploaders (identities) from 4 addresses, each sending 10 MiB text files back to back. */
async function floodUploads(server: Server, options: { signal: AbortSignal; ready: () => void }): Promise<string> {
  const { signal, ready } = options;
  const file = Buffer.alloc(10 * 1024 * 1024, 'a');
  const statuses: number[] = [];
  const upload = (index: number): Promise<number> =>
    new Promise((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          localAddress: `127.0.4.${(index % 4) + 1}`,
          agent: false,
          method: 'POST',
          path: '/api/agent/v1/attachments',
          headers: {
            'x-bench-user': `uploader${index}`,
            'x-agent-identity': `idn_uploader${index}`,
            'content-type': 'text/plain',
            'content-length': String(file.byteLength),
            'x-attachment-name': `flood-${index}.txt`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(file);
    });
  // Ten seconds of uploads before the ordinary user comes, as the review's 1,000 MB in 11 s.
  setTimeout(ready, 10_000);
  await Promise.all(
    Array.from({ length: 32 }, async (_, index) => {
      while (!signal.aborted) statuses.push(await upload(index));
    }),
  );
  const stored = (await readdir(attachmentsDir, { recursive: true })).filter((name) => name.endsWith('.bin'));
  return `${tally(statuses)}; ${stored.length} files stored`;
}

async function floodRuns(
  server: Server,
  options: { signal: AbortSignal; ready: () => void; addresses: string[] },
): Promise<string> {
  const { signal, ready, addresses } = options;
  const statuses: number[] = [];
  const startedAt = performance.now();
  const batches = Array.from({ length: 400 }, (_, index) => index);
  // Five runs per identity (its maxActiveRuns), 50 requests at a time.
  for (let start = 0; start < batches.length && !signal.aborted; start += 10) {
    const answers = await Promise.all(
      batches.slice(start, start + 10).flatMap((identity) =>
        Array.from({ length: 5 }, () =>
          send(server, {
            localAddress: addresses[identity % addresses.length] as string,
            user: `runner${identity}`,
            path: '/api/agent/v1/runs',
            body: createBody('/long 20000'),
          }),
        ),
      ),
    );
    statuses.push(...answers.map((answer) => answer.status));
  }
  const builtUpMs = performance.now() - startedAt;
  ready();
  await untilAborted(signal);
  const stats = await readStats(server);
  return `${tally(statuses)} in ${ms(builtUpMs)}; ${stats.liveRuns} live at the end`;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return signal.aborted
    ? Promise.resolve()
    : new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
}

interface Stats {
  peakRss: number;
  requests: number;
  streams: number;
  bodies: number;
  liveRuns: number;
  parkedRuns?: number;
}

async function readStats(server: Server): Promise<Stats> {
  const answer = await send(server, {
    localAddress: '127.0.0.1',
    user: 'ops',
    path: '/bench/stats',
    timeoutMs: 30_000,
  });
  return JSON.parse(answer.body || '{}') as Stats;
}

interface Row {
  flood: string;
  on: { seen: Seen; peakRss: number; flood: string };
  off: { seen: Seen; peakRss: number; flood: string };
}

async function measure(flood: Flood, mode: 'on' | 'off'): Promise<Row['on']> {
  attachmentsDir = await mkdtemp(join(tmpdir(), 'agent-chat-abuse-'));
  const server = await startServer(mode, flood.mount);
  try {
    const controller = new AbortController();
    let isReady = (): void => undefined;
    const inPlace = new Promise<void>((resolve) => (isReady = resolve));
    const flooding = flood.run(server, controller.signal, isReady);
    // The ordinary user arrives once the flood is in place (or has been building up for BUILD_UP_MS)
    // and the flood stops once the user has an answer.
    await Promise.race([inPlace, new Promise((resolve) => setTimeout(resolve, BUILD_UP_MS))]);
    const seen = await ordinaryUser(server);
    controller.abort();
    const counted = await flooding;
    const { peakRss } = await readStats(server);
    return { seen, peakRss, flood: counted };
  } finally {
    await stopServer(server);
    await rm(attachmentsDir, { recursive: true, force: true });
  }
}

const ms = (value: number | null): string => (value === null ? '—' : `${(value / 1000).toFixed(2)} s`);
const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

const rows: Row[] = [];
for (const flood of floods) {
  if (only !== undefined && !flood.name.startsWith(only)) continue;
  const on = await measure(flood, 'on');
  const off = await measure(flood, 'off');
  rows.push({ flood: flood.name, on, off });
  console.log(`${flood.name}\n  limits on:  ${on.flood}\n  limits off: ${off.flood}`);
}

console.log('\n| Flood | Limits | Ordinary user: created | first event | done | outcome | Server peak RSS |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  for (const [label, side] of [
    ['on', row.on],
    ['off', row.off],
  ] as const) {
    const { seen } = side;
    console.log(
      `| ${label === 'on' ? row.flood : ''} | ${label} | ${ms(seen.createdMs)} | ${ms(seen.firstEventMs)} | ${ms(seen.doneMs)} | ${seen.outcome} | ${mb(side.peakRss)} |`,
    );
  }
}
