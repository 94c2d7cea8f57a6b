import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createRunEngine } from '../../src/server/agent-loop/create-run-engine.ts';
import { openDirectoryAttachmentStore } from '../../src/server/attachments/directory-attachment-store.ts';
import { createDemoTools } from '../../src/server/tools/demo-tools.ts';
import type { AgentHandlerMembers } from '../../src/server/agent-server-options.ts';
import { createAgentFetchHandler } from '../../src/server/create-agent-fetch-handler.ts';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import { createAgentHttpServer } from '../../src/server/http/create-agent-http-server.ts';

// The server side of bench/abuse.ts, in its own process so its RSS is the server's alone: the
// default engine (the scripted model at its demo pace, the demo tools) on the in-memory storage,
// each user named by the `x-bench-user` header. BENCH_LIMITS=off lifts every cap this branch
// added, keeping the 5,000 requests at once of before (and waiting runs keep their live slots);
// BENCH_EDGE_LIMITS (JSON) overrides some of them otherwise. BENCH_MOUNT=fetch-unnamed serves the
// fetch handler on @hono/node-server without the client's address; BENCH_ATTACHMENTS_DIR turns
// uploads on into that folder. Prints `{"port":…}` first, then serves GET /bench/stats.
const unlimited = Number.POSITIVE_INFINITY;
const isOff = process.env.BENCH_LIMITS === 'off';
const attachmentsDir = process.env.BENCH_ATTACHMENTS_DIR;
const options = {
  engine: createRunEngine({ tools: createDemoTools() }),
  identityFor: (subject: { id: string }) => `idn_${subject.id}`,
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
          maxParkedRuns: 0,
          shedAtEventLoopUtilization: unlimited,
        },
      }
    : { edgeLimits: JSON.parse(process.env.BENCH_EDGE_LIMITS ?? '{}') as Record<string, number> }),
  // Uploads kept in BENCH_ATTACHMENTS_DIR; off, without the caps issue 49 added.
  ...(attachmentsDir === undefined ? {} : { attachments: openDirectoryAttachmentStore({ directory: attachmentsDir }) }),
  ...(isOff
    ? {
        attachmentCaps: {
          maxUploads: unlimited,
          maxUploadsPerClient: unlimited,
          maxUploadsPerIdentity: unlimited,
          attachmentBytesPerHourPerClient: unlimited,
          maxAttachmentStoreBytes: unlimited,
          minFreeDiskBytes: 0,
        },
        limits: { attachmentBytesPerHour: 2 ** 50 },
      }
    : {}),
};
const userOf = (header: string | string[] | null | undefined): { id: string } | null =>
  typeof header === 'string' ? { id: header } : null;

let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50).unref();
const statsOf = (handler: AgentHandlerMembers): string => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return JSON.stringify({ peakRss, ...handler.stats() });
};

let server: Server;
if (process.env.BENCH_MOUNT === 'fetch-unnamed') {
  // A fetch handler mounted as the docs warn against: no client address, so no per-client limit.
  const handler = createAgentFetchHandler({
    ...options,
    authenticate: (request) => userOf(request.headers.get('x-bench-user')),
  });
  server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) =>
      new URL(request.url).pathname === '/bench/stats'
        ? new Response(statsOf(handler), { headers: { 'content-type': 'application/json' } })
        : handler(request),
  }) as Server;
} else {
  const handler = createAgentHandler({ ...options, authenticate: (req) => userOf(req.headers['x-bench-user']) });
  server = createAgentHttpServer((req, res) => {
    if (req.url === '/bench/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(statsOf(handler));
      return;
    }
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
}
const listening = server.listening ? Promise.resolve() : once(server, 'listening');
void listening.then(() => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
