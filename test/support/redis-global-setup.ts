import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redis-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the private redis-server the server tests share (`inject('redisUrl')`). */
    redisUrl: string;
  }
}

/**
 * Vitest global setup of the server tests: starts one private `redis-server` (free port, temp dir,
 * no persistence) and provides its URL; each suite keeps its keys under a prefix or database of
 * its own. The teardown stops it, and its watchdog stops it too if this process dies first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
