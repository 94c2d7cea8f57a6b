import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// `npm run bench:memory-per-run -- --identities 100 --runs 100 --runs-per-session 10`: the real
// handler in a child process (bench/support/memory-server.ts), driven over loopback. Prints the
// server's RSS and heap per run kept: with the runs' logs, after the logs are trimmed
// (eventRetentionSec), and after idle sessions are evicted (sessionIdleTtlSec). Last line: the figure.
const identities = readFlag('--identities', 100);
const runsPerIdentity = readFlag('--runs', 100);
const runsPerSession = readFlag('--runs-per-session', 10);
const concurrency = readFlag('--concurrency', 10);
const deltas = readFlag('--deltas', 20);

interface Memory {
  rss: number;
  heapUsed: number;
  sessions: number;
  runs: number;
}

const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./support/memory-server.ts', import.meta.url))],
  { env: { ...process.env, BENCH_DELTAS: String(deltas) }, stdio: ['ignore', 'pipe', 'inherit'] },
);
const lines = createInterface({ input: child.stdout });
const [firstLine] = (await once(lines, 'line')) as [string];
const { port } = JSON.parse(firstLine) as { port: number };
const origin = `http://127.0.0.1:${port}`;

const memory = async (path: string, method = 'GET'): Promise<Memory> =>
  (await (await fetch(`${origin}${path}`, { method })).json()) as Memory;

const baseline = await memory('/bench/memory');
const started = Date.now();
let nextIdentity = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let index = nextIdentity++; index < identities; index = nextIdentity++) await converse(`user-${index}`);
  }),
);
const createSeconds = (Date.now() - started) / 1000;
const kept = await memory('/bench/memory');
const DAY_MS = 86_400_000;
const trimmed = await memory(`/bench/advance?ms=${DAY_MS + 60_000}`, 'POST');
const evicted = await memory(`/bench/advance?ms=${7 * DAY_MS}`, 'POST');
child.kill('SIGTERM');
await once(child, 'exit');

const total = identities * runsPerIdentity;
const perRun = (value: number, base: number, runs: number): string =>
  runs === 0 ? '—' : `${((value - base) / runs / 1024).toFixed(2)} KB`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `${total.toLocaleString('en-US')} runs (${identities} identities × ${runsPerIdentity}, ${runsPerSession} per session, ` +
    `${deltas + 5} events each) created over loopback in ${createSeconds.toFixed(1)} s; memory after a full GC in the server process`,
);
const rows: Array<[string, Memory]> = [
  ['baseline (no runs)', baseline],
  ['all kept, with logs', kept],
  ['after eventRetention (logs trimmed)', trimmed],
  ['after sessionIdleTtl (evicted)', evicted],
];
console.log(
  `${'stage'.padEnd(38)}${'sessions'.padStart(9)}${'runs'.padStart(8)}${'RSS'.padStart(10)}${'heap'.padStart(10)}` +
    `${'RSS/run'.padStart(11)}${'heap/run'.padStart(11)}`,
);
for (const [stage, m] of rows) {
  console.log(
    `${stage.padEnd(38)}${String(m.sessions).padStart(9)}${String(m.runs).padStart(8)}${mb(m.rss).padStart(10)}` +
      `${mb(m.heapUsed).padStart(10)}${perRun(m.rss, baseline.rss, m.runs).padStart(11)}` +
      `${perRun(m.heapUsed, baseline.heapUsed, m.runs).padStart(11)}`,
  );
}
console.log(
  `memory-per-run: ${perRun(kept.rss, baseline.rss, kept.runs)} RSS (${perRun(kept.heapUsed, baseline.heapUsed, kept.runs)} heap) ` +
    `per run kept with its log, ${perRun(trimmed.rss, baseline.rss, trimmed.runs)} RSS ` +
    `(${perRun(trimmed.heapUsed, baseline.heapUsed, trimmed.runs)} heap) once trimmed; after eviction ${evicted.runs} runs, ` +
    `heap ${mb(evicted.heapUsed - baseline.heapUsed)} and RSS ${mb(evicted.rss - baseline.rss)} above the baseline`,
);

/** One identity's conversations: sessions of `runsPerSession` runs, each sent once the previous ended. */
async function converse(user: string): Promise<void> {
  const headers = {
    'agent-protocol': '1',
    'content-type': 'application/json',
    'x-bench-user': user,
    'x-agent-identity': `idn_${user}`,
  };
  let sessionId: string | undefined;
  for (let n = 0; n < runsPerIdentity; n += 1) {
    if (n % runsPerSession === 0) sessionId = undefined;
    const body = JSON.stringify({
      agentVersionId: 'agv_demo_1',
      ...(sessionId === undefined ? {} : { sessionId }),
      input: { content: [{ type: 'text', text: `Question ${n} from ${user}: how do I export my drafts?` }] },
    });
    const key = `bench-${user}-${n}-0123456789`;
    for (;;) {
      const response = await fetch(`${origin}/api/agent/v1/runs`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': key },
        body,
      });
      const answer = (await response.json()) as { sessionId?: string; code?: string };
      if (response.status === 201) {
        sessionId = answer.sessionId;
        break;
      }
      // The previous answer of this session is still being written: send again in a moment.
      if (answer.code !== 'RUN_ALREADY_ACTIVE') throw new Error(`create failed: ${response.status} ${answer.code}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

function readFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index < 0 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
