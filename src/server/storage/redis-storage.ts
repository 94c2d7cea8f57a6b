import type { AgentStorage } from './storage-port.ts';
import { createRedisExecutorLeases, REDIS_EXECUTOR_SCRIPTS } from './redis-executor-leases.ts';
import { createRedisLayout } from './redis-keys.ts';
import { TAKE_RATE } from './redis-rate-script.ts';
import {
  ABANDON_IDEMPOTENCY,
  BEGIN_IDEMPOTENCY,
  BIND_AG_UI_THREAD,
  COMPLETE_IDEMPOTENCY,
  COUNT_SESSION_MESSAGES,
  COUNTS,
  DELETE_EXPIRED_IDEMPOTENCY,
  GET_OR_CREATE_SETTING,
  LIST_EXPIRED_LEASES,
  LIST_FINAL_SNAPSHOTS,
  LIST_MESSAGES,
  LIST_SESSIONS,
  LIST_TURN_LINKS,
  PUT_FEEDBACK,
  RENEW_LEASE,
  SET_AG_UI_SEGMENT,
  TAKE_EXPIRED_LEASE,
  UPDATE_SESSION_TITLE,
} from './redis-record-scripts.ts';
import { DELETE_SESSION, ENFORCE_RETENTION, EVICT_SESSION, NEXT_EVICTION } from './redis-retention-script.ts';
import { APPEND_EVENTS, COMPACT_ENDED_RUNS, CREATE_RUN, GET_RUN, SHOW_BRANCH } from './redis-run-scripts.ts';
import type { RunScript, StorageScript } from './redis-script.ts';
import { scriptArguments } from './redis-script.ts';
import { createShardDirectory } from './redis-shard-directory.ts';
import { createRedisTails } from './redis-tails.ts';
import { createRedisAdmissionStorage } from './redis/redis-admission.ts';
import { createRedisAgUiStorage } from './redis/redis-ag-ui.ts';
import type { RedisConnections } from './redis/redis-connections.ts';
import type { RedisContext } from './redis/redis-context.ts';
import { createRedisFeedbackStorage } from './redis/redis-feedback.ts';
import { createRedisIdempotencyStorage } from './redis/redis-idempotency.ts';
import { createRedisRetentionStorage } from './redis/redis-retention.ts';
import { createRedisRunLeaseStorage } from './redis/redis-run-leases.ts';
import { createRedisRunStorage } from './redis/redis-runs.ts';
import { createRedisSessionStorage } from './redis/redis-sessions.ts';
import { createRedisSettingStorage } from './redis/redis-settings.ts';

export type { RedisConnections } from './redis/redis-connections.ts';

/** Every script of the Redis storage: `openRedisStorage` defines them on its client. */
export const REDIS_STORAGE_SCRIPTS: readonly StorageScript[] = [
  ABANDON_IDEMPOTENCY,
  APPEND_EVENTS,
  BEGIN_IDEMPOTENCY,
  BIND_AG_UI_THREAD,
  COMPACT_ENDED_RUNS,
  COMPLETE_IDEMPOTENCY,
  COUNT_SESSION_MESSAGES,
  COUNTS,
  CREATE_RUN,
  DELETE_EXPIRED_IDEMPOTENCY,
  DELETE_SESSION,
  ENFORCE_RETENTION,
  EVICT_SESSION,
  GET_OR_CREATE_SETTING,
  GET_RUN,
  LIST_EXPIRED_LEASES,
  LIST_FINAL_SNAPSHOTS,
  LIST_MESSAGES,
  LIST_SESSIONS,
  LIST_TURN_LINKS,
  NEXT_EVICTION,
  PUT_FEEDBACK,
  RENEW_LEASE,
  SET_AG_UI_SEGMENT,
  SHOW_BRANCH,
  TAKE_EXPIRED_LEASE,
  TAKE_RATE,
  UPDATE_SESSION_TITLE,
  ...REDIS_EXECUTOR_SCRIPTS,
];

/** Options of {@link createRedisStorage}. */
export interface RedisStorageOptions {
  connections: RedisConnections;
  /** Prepended to every key (default `agent-chat:`), so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Runs one blocking `XREAD` waits on at most (default 64). */
  tailGroupSize?: number;
  /** Where connection failures of the live tails are reported. Default `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * Creates the Redis {@link AgentStorage} (docs/server.md, "Redis") over `connections`: event logs
 * are streams with entry ids `<seq>-0`, every write that changes several keys is one Lua script
 * in one shard (so it is atomic and fenced), and the doorbell is cross-process (`XREAD BLOCK`, see
 * `createRedisTails`), so a reader on any process follows a run produced on another. A standalone
 * Redis is one shard; on Redis Cluster a subject's records live in the shard of its id
 * (`redis-keys.ts`), a method given only a session or run id finds it through the shard
 * directory (`redis-shard-directory.ts`), and the sweeps go over every shard
 * (`redis-shard-sweeps.ts`). Its roles (`redis/`) share one `RedisContext`.
 */
export function createRedisStorage(options: RedisStorageOptions): AgentStorage {
  const { connections } = options;
  const prefix = options.keyPrefix ?? 'agent-chat:';
  if (connections.isCluster && /[{}]/.test(prefix))
    throw new RangeError('keyPrefix must not hold { or } on Redis Cluster.');
  const onError = options.onError ?? ((error: unknown) => console.error('[agent-chat] redis', error));
  const layout = createRedisLayout(prefix, connections.isCluster);
  const run: RunScript = (script, shard, keyed, args) => {
    const call = scriptArguments(script, { keys: keyed, args }, shard.base);
    return connections.runScript(script, call.keys, call.argv);
  };
  // A command of one key, which is its first argument (HGETALL, XRANGE, SCARD, ...).
  const send = (args: string[]): Promise<unknown> => connections.send(args[1] ?? layout.global, args);
  const directory = createShardDirectory(layout, connections.send);
  const tails = createRedisTails({
    send: connections.send,
    openConnection: (key) => connections.openConnection(key),
    locate: async (runId) => {
      const shard = await directory.find(runId);
      return { stream: shard.stream(runId), slot: shard.base };
    },
    groupSize: options.tailGroupSize ?? 64,
    onError,
  });
  const context: RedisContext = { connections, layout, run, send, directory, tails };
  return {
    ...createRedisRunStorage(context),
    ...createRedisSessionStorage(context),
    ...createRedisRetentionStorage(context),
    ...createRedisIdempotencyStorage(context),
    ...createRedisRunLeaseStorage(context),
    ...createRedisAdmissionStorage(context),
    executorLeases: createRedisExecutorLeases(run, connections.send, layout),
    ...createRedisAgUiStorage(context),
    ...createRedisFeedbackStorage(context),
    ...createRedisSettingStorage(context),
    async checkReady() {
      if ((await connections.send(layout.global, ['PING'])) !== 'PONG')
        throw new Error('Redis did not answer PING with PONG.');
    },
    async close() {
      tails.close();
      await connections.close();
    },
  };
}
