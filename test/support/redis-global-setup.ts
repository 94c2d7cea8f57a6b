import type { TestProject } from 'vitest/node';
import { startRedisCluster } from './redis-cluster.ts';
import { startRedisServer } from './redis-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the private redis-server the server tests share (`inject('redisUrl')`). */
    redisUrl: string;
    /** `redis://127.0.0.1:<port>` of each node of the private three-node Redis Cluster they share. */
    redisClusterNodes: string[];
  }
}

/**
 * Vitest global setup of the server tests: starts one private `redis-server` (free port, temp dir,
 * no persistence) and one private three-node Redis Cluster, and provides their URLs; each suite
 * keeps its keys under a prefix or database of its own. The teardown stops them, and their
 * watchdogs stop them too if this process dies first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
  project.provide('redisUrl', redis.url);
  project.provide('redisClusterNodes', cluster.nodes);
  return async () => {
    await Promise.all([redis.stop(), cluster.stop()]);
  };
}
