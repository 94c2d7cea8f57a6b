import { createClient } from '@redis/client';
import { inject } from 'vitest';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';
import type { SharedStore } from './test-support/scale-out-suite.ts';
import { describeScaleOut } from './test-support/scale-out-suite.ts';

const STORES: [string, () => Promise<SharedStore>][] = [
  [
    'one redis-server (REDIS_URL)',
    async () => {
      const redisUrl = `${inject('redisUrl')}/5`;
      const raw = createClient({ url: redisUrl });
      await raw.connect();
      await raw.flushDb();
      await raw.close();
      return { env: { REDIS_URL: redisUrl }, stop: async () => undefined };
    },
  ],
  [
    'a three-node Redis Cluster (REDIS_CLUSTER_NODES)',
    async () => {
      // A cluster of the test's own: the processes use the default key prefix, and there is no db to select.
      const cluster = await startRedisCluster();
      const nodes = cluster.nodes.map((node) => new URL(node).host).join(',');
      return { env: { REDIS_CLUSTER_NODES: nodes }, stop: () => cluster.stop() };
    },
  ],
];

describeScaleOut(STORES);
