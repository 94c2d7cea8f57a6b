import { startRedisServer } from './redis-server.ts';

// A process that starts a private redis-server, prints its URL and dir and then waits to be killed: the
// test of the watchdog SIGKILLs it and checks that the redis-server went with it.
const redis = await startRedisServer();
process.stdout.write(`${JSON.stringify({ url: redis.url, dir: redis.dir })}\n`);
setInterval(() => undefined, 60_000);
