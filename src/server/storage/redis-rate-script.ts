import { defineStorageScript } from './redis-script.ts';

/**
 * Counts one request against a shared rate bucket (`AgentStorage.takeRate`), the same generic cell
 * rate algorithm as the in-memory limiter (`createRateLimiter`): the key holds the time at which
 * the bucket is full again, in `1/perMinute` ms since 2023-11-14 (so every step stays an exact
 * integer below 2^53), and expires when the bucket has refilled. Keys: the bucket
 * (`rate:<perMinute>:<bucket>`, in a hash tag of its own on Redis Cluster, so buckets spread over the
 * nodes). Values: perMinute, now (ms since the epoch). Returns 0 when the request was counted, else
 * the wait in whole ms (≥ 1).
 */
export const TAKE_RATE = defineStorageScript(
  'agentChatTakeRate',
  ['bucket'],
  `
local count = tonumber(A.perMinute)
local key = K.bucket
local now = (tonumber(A.now) - 1700000000000) * count
local window = 60000
local fullAt = math.max(tonumber(redis.call('GET', key) or now), now) + window
local over = fullAt - now - window * count
if over > 0 then return math.ceil(over / count) end
redis.call('SET', key, string.format('%d', fullAt), 'PX', math.ceil((fullAt - now) / count))
return 0
`,
  { bare: true },
);
