import { createHash } from 'node:crypto';

/** One Lua script of the Redis storage: its source and the SHA1 `EVALSHA` names it by. */
export interface RedisScript {
  source: string;
  sha1: string;
}

/**
 * What every script starts with: the key prefix (`ARGV[1]`) and the helpers they share. Keys are
 * built from the prefix inside the scripts (a standalone Redis; docs/server.md, "Redis").
 */
const PRELUDE = `
local P = ARGV[1]
local function sessionKey(id) return P .. 'session:' .. id end
local function runKey(id) return P .. 'run:' .. id end
local function streamKey(id) return P .. 'events:' .. id end
local function idemKey(id) return P .. 'idem:' .. id end
-- A member of the activity sets: the session's creation position first, so equal times keep creation order.
local function activityMember(position, sessionId) return string.format('%016d', tonumber(position)) .. ':' .. sessionId end
local function sessionOfMember(member) return string.sub(member, 18) end
local function touchActivity(sessionId, at)
  local s = redis.call('HMGET', sessionKey(sessionId), 'position', 'subjectId')
  if not s[1] then return end
  local member = activityMember(s[1], sessionId)
  redis.call('ZADD', P .. 'activity', at, member)
  redis.call('ZADD', P .. 'subject-activity:' .. s[2], at, member)
end
local function holdsIdempotency(recordId, token)
  local r = redis.call('HMGET', idemKey(recordId), 'state', 'token')
  return r[1] == 'in_progress' and r[2] == token
end
local function completeIdempotency(recordId, response, expiresAt)
  local key = idemKey(recordId)
  redis.call('HSET', key, 'state', 'completed', 'response', response, 'expiresAt', expiresAt)
  redis.call('HDEL', key, 'token', 'lockedUntil')
  redis.call('ZADD', P .. 'idem-expiry', expiresAt, recordId)
end
`;

/** Defines a script from its body (the prelude is prepended). */
export function defineRedisScript(body: string): RedisScript {
  const source = `${PRELUDE}\n${body}`;
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/** The one command the storage needs to run scripts (the client's `sendCommand`). */
export type SendCommand = (args: string[]) => Promise<unknown>;

/**
 * Runs `script` with `args` after the prefix: `EVALSHA`, and `EVAL` (which caches it) the first
 * time a server does not know it yet (`NOSCRIPT`, e.g. after a restart of Redis).
 */
export async function runRedisScript(
  send: SendCommand,
  script: RedisScript,
  prefix: string,
  args: readonly (string | number)[],
): Promise<unknown> {
  const argv = [prefix, ...args.map(String)];
  try {
    return await send(['EVALSHA', script.sha1, '0', ...argv]);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return send(['EVAL', script.source, '0', ...argv]);
  }
}
