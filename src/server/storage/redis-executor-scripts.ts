import { defineStorageScript } from './redis-script.ts';

/**
 * Lua shared by the executor lease scripts (`AgentStorage.executorLeases`): the hash `executors`
 * maps a lease's field (JSON `[subjectId, executorId]`) to its JSON (ids and tools), the sorted
 * set `executor-expiry` scores every field by its expiry, and `subject-executors:<subjectId>`
 * scores the subject's fields in refresh order (a counter, `counters` field `executor`).
 */
const EXECUTOR_LEASES = `
local function subjectExecutors(subjectId) return P .. 'subject-executors:' .. subjectId end
local function refreshOrder() return redis.call('HINCRBY', P .. 'counters', 'executor', 1) end
local function forgetLease(field, subjectId)
  redis.call('HDEL', P .. 'executors', field)
  redis.call('ZREM', P .. 'executor-expiry', field)
  redis.call('ZREM', subjectExecutors(subjectId), field)
end
`;

/**
 * Keeps or refreshes a lease (`ExecutorLeaseStore.connect`). Keys: `executors`, `executor-expiry`
 * and the subject's `subject-executors:`. Values: field, lease (JSON without its expiry),
 * subjectId, now, expiresAt, maxPerSubject, maxExecutors, liveElsewhere (the live leases of the
 * other shards on Redis Cluster, read just before: racing connects may pass `maxExecutors` by a
 * few there; 0 on one shard). Returns 1, or 0 when every live slot is taken, the subject's
 * quota does not pay for a new one and it is no newcomer that may take the oldest lease of a
 * subject holding more than one (within this shard on a cluster).
 */
export const CONNECT_EXECUTOR = defineStorageScript(
  'agentChatConnectExecutor',
  ['executors', 'expiry', 'subjectExecutors'],
  `${EXECUTOR_LEASES}
local isNew = redis.call('HEXISTS', K.executors, A.field) == 0
local live = redis.call('ZCOUNT', K.expiry, '(' .. A.now, '+inf') + tonumber(A.liveElsewhere)
local held = redis.call('ZCARD', K.subjectExecutors)
if isNew and live >= tonumber(A.maxExecutors) and held < tonumber(A.maxPerSubject) then
  -- A newcomer takes the oldest live lease (of the first 1,000) whose subject holds another one.
  if held > 0 then return 0 end
  local crowded = nil
  local page = redis.call('ZRANGEBYSCORE', K.expiry, '(' .. A.now, '+inf', 'LIMIT', 0, 1000)
  for _, field in ipairs(page) do
    local owner = cjson.decode(field)[1]
    if redis.call('ZCARD', subjectExecutors(owner)) > 1 then
      crowded = { field, owner }
      break
    end
  end
  if not crowded then return 0 end
  forgetLease(crowded[1], crowded[2])
end
redis.call('HSET', K.executors, A.field, A.lease)
redis.call('ZADD', K.expiry, A.expiresAt, A.field)
redis.call('ZADD', K.subjectExecutors, refreshOrder(), A.field)
local over = redis.call('ZCARD', K.subjectExecutors) - tonumber(A.maxPerSubject)
if over > 0 then
  for _, field in ipairs(redis.call('ZRANGE', K.subjectExecutors, 0, over - 1)) do forgetLease(field, A.subjectId) end
end
return 1
`,
);

/**
 * Moves a live lease's expiry (`ExecutorLeaseStore.heartbeat`). Keys as {@link CONNECT_EXECUTOR}.
 * Values: field, now, expiresAt. Returns the lease JSON, or nil when there is no live lease.
 */
export const HEARTBEAT_EXECUTOR = defineStorageScript(
  'agentChatHeartbeatExecutor',
  ['executors', 'expiry', 'subjectExecutors'],
  `${EXECUTOR_LEASES}
local lease = redis.call('HGET', K.executors, A.field)
local expiresAt = redis.call('ZSCORE', K.expiry, A.field)
if not lease or not expiresAt or tonumber(expiresAt) <= tonumber(A.now) then return false end
redis.call('ZADD', K.expiry, A.expiresAt, A.field)
redis.call('ZADD', K.subjectExecutors, refreshOrder(), A.field)
return lease
`,
);

/** Ends a lease (`ExecutorLeaseStore.disconnect`). Keys as {@link CONNECT_EXECUTOR}. Values: field, subjectId. Returns 1 or 0. */
export const DISCONNECT_EXECUTOR = defineStorageScript(
  'agentChatDisconnectExecutor',
  ['executors', 'expiry', 'subjectExecutors'],
  `${EXECUTOR_LEASES}
if redis.call('HEXISTS', K.executors, A.field) == 0 then return 0 end
forgetLease(A.field, A.subjectId)
return 1
`,
);

/** A lease and its expiry: `{lease JSON, expiresAt}`, or nil. Keys: `executors`, `executor-expiry`. Values: field. */
export const FIND_EXECUTOR = defineStorageScript(
  'agentChatFindExecutor',
  ['executors', 'expiry'],
  `
local lease = redis.call('HGET', K.executors, A.field)
local expiresAt = redis.call('ZSCORE', K.expiry, A.field)
if not lease or not expiresAt then return false end
return {lease, expiresAt}
`,
);

/**
 * Removes the leases expired by `now`, oldest first (`ExecutorLeaseStore.takeExpired`): flat
 * lease JSON, expiresAt pairs. Keys: `executors`, `executor-expiry`. Values: now, limit.
 */
export const TAKE_EXPIRED_EXECUTORS = defineStorageScript(
  'agentChatTakeExpiredExecutors',
  ['executors', 'expiry'],
  `${EXECUTOR_LEASES}
local expired = redis.call('ZRANGEBYSCORE', K.expiry, '-inf', A.now, 'WITHSCORES', 'LIMIT', 0, tonumber(A.limit))
local out = {}
for i = 1, #expired, 2 do
  local lease = redis.call('HGET', K.executors, expired[i])
  if lease then
    table.insert(out, lease)
    table.insert(out, expired[i + 1])
    forgetLease(expired[i], cjson.decode(lease).subjectId)
  else
    redis.call('ZREM', K.expiry, expired[i])
  end
end
return out
`,
);
