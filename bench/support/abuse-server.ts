import type { AddressInfo } from 'node:net';
import { createRunEngine } from '../../src/server/agent-loop/create-run-engine.ts';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import { createAgentHttpServer } from '../../src/server/http/create-agent-http-server.ts';

// The server side of bench/abuse.ts, in its own process so its RSS is the server's alone: the
// default engine (the scripted model, at its demo pace) on the in-memory storage, each user named
// by the `x-bench-user` header. BENCH_LIMITS=off lifts every cap this branch added, keeping the
// 5,000 requests at once of before; BENCH_EDGE_LIMITS (JSON) overrides some of them otherwise.
// Prints `{"port":…}` first, then serves GET /bench/stats.
const unlimited = Number.POSITIVE_INFINITY;
const isOff = process.env.BENCH_LIMITS === 'off';
const handler = createAgentHandler({
  engine: createRunEngine(),
  authenticate: (req) => {
    const user = req.headers['x-bench-user'];
    return typeof user === 'string' ? { id: user } : null;
  },
  identityFor: (subject) => `idn_${subject.id}`,
  onError: () => undefined,
  ...(isOff
    ? {
        edgeLimits: {
          maxConnectionsPerClient: unlimited,
          maxBodiesPerClient: unlimited,
          maxBodiesPerIdentity: unlimited,
          maxStreams: unlimited,
          maxStreamsPerClient: unlimited,
          maxLiveRuns: unlimited,
          maxLiveRunsPerClient: unlimited,
          shedAtEventLoopUtilization: unlimited,
        },
      }
    : { edgeLimits: JSON.parse(process.env.BENCH_EDGE_LIMITS ?? '{}') as Record<string, number> }),
});

let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50).unref();

const server = createAgentHttpServer((req, res) => {
  if (req.url === '/bench/stats') {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ peakRss, ...handler.stats() }));
    return;
  }
  handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
