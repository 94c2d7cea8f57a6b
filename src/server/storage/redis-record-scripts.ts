import { defineRedisScript } from './redis-script.ts';

/**
 * Looks an idempotency key up and inserts an `in_progress` record when none is live
 * (`AgentStorage.beginIdempotency`); one script, so of concurrent begins exactly one is `started`.
 * ARGV: prefix, recordId, fingerprint, token, now, lockedUntil, expiresAt.
 */
export const BEGIN_IDEMPOTENCY = defineRedisScript(`
local recordId, fingerprint, token, now = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local key = idemKey(recordId)
local r = redis.call('HMGET', key, 'fingerprint', 'state', 'lockedUntil', 'expiresAt', 'response')
if r[1] and tonumber(r[4]) > now then
  if r[1] ~= fingerprint then return {'reused'} end
  if r[2] == 'completed' then return {'replay', r[5]} end
  if tonumber(r[3]) > now then return {'in_use'} end
end
redis.call('DEL', key)
redis.call('HSET', key, 'fingerprint', fingerprint, 'state', 'in_progress', 'token', token, 'lockedUntil', ARGV[6],
  'expiresAt', ARGV[7])
redis.call('ZADD', P .. 'idem-expiry', ARGV[7], recordId)
return {'started'}
`);

/** Completes a record its token still holds. ARGV: prefix, recordId, token, response JSON, expiresAt. Returns 1 or 0. */
export const COMPLETE_IDEMPOTENCY = defineRedisScript(`
if not holdsIdempotency(ARGV[2], ARGV[3]) then return 0 end
completeIdempotency(ARGV[2], ARGV[4], ARGV[5])
return 1
`);

/** Removes an `in_progress` record its token still holds. ARGV: prefix, recordId, token. */
export const ABANDON_IDEMPOTENCY = defineRedisScript(`
if not holdsIdempotency(ARGV[2], ARGV[3]) then return 0 end
redis.call('DEL', idemKey(ARGV[2]))
redis.call('ZREM', P .. 'idem-expiry', ARGV[2])
return 1
`);

/** Deletes the records that expired by `now`. ARGV: prefix, now. Returns how many. */
export const DELETE_EXPIRED_IDEMPOTENCY = defineRedisScript(`
local ids = redis.call('ZRANGEBYSCORE', P .. 'idem-expiry', '-inf', ARGV[2])
for _, recordId in ipairs(ids) do redis.call('DEL', idemKey(recordId)) end
redis.call('ZREMRANGEBYSCORE', P .. 'idem-expiry', '-inf', ARGV[2])
return #ids
`);

/** Moves a lease's expiry if `owner` holds it. ARGV: prefix, runId, owner, expiresAt. Returns 1 or 0. */
export const RENEW_LEASE = defineRedisScript(`
if redis.call('HGET', P .. 'lease-owners', ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('ZADD', P .. 'leases', 'XX', ARGV[4], ARGV[2])
return 1
`);

/**
 * Takes over the lease of a live run that expired by `now`; of racing takers exactly one wins.
 * ARGV: prefix, runId, owner, now, expiresAt. Returns 1 or 0.
 */
export const TAKE_EXPIRED_LEASE = defineRedisScript(`
local runId = ARGV[2]
local score = redis.call('ZSCORE', P .. 'leases', runId)
if not score or tonumber(score) > tonumber(ARGV[4]) then return 0 end
local run = redis.call('HMGET', runKey(runId), 'sessionId', 'endedAt')
if not run[1] or run[2] then return 0 end
redis.call('ZADD', P .. 'leases', ARGV[5], runId)
redis.call('HSET', P .. 'lease-owners', runId, ARGV[3])
return 1
`);

/** Leases expired by `now`, oldest first: flat runId, owner, expiresAt. ARGV: prefix, now, limit. */
export const LIST_EXPIRED_LEASES = defineRedisScript(`
local expired = redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', ARGV[2], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for i = 1, #expired, 2 do
  table.insert(out, expired[i])
  table.insert(out, redis.call('HGET', P .. 'lease-owners', expired[i]) or '')
  table.insert(out, expired[i + 1])
end
return out
`);

/** The stored value of a setting, storing the proposed one first when there is none. ARGV: prefix, name, proposed. */
export const GET_OR_CREATE_SETTING = defineRedisScript(`
redis.call('HSETNX', P .. 'settings', ARGV[2], ARGV[3])
return redis.call('HGET', P .. 'settings', ARGV[2])
`);

/** How many sessions and runs are kept. ARGV: prefix. */
export const COUNTS = defineRedisScript(`
return {redis.call('ZCARD', P .. 'sessions'), redis.call('ZCARD', P .. 'runs')}
`);

/**
 * A subject's sessions by latest activity (the activity set: score `updatedAt`, members
 * `<position>:<sessionId>`, so equal times are latest created first), after a keyset cursor: up to
 * limit + 1 rows `{sessionId, hash, member, score}`. ARGV: prefix, subjectId, cursor score ('' for
 * the first page), cursor member, limit.
 */
export const LIST_SESSIONS = defineRedisScript(`
local index = P .. 'subject-activity:' .. ARGV[2]
local wanted = tonumber(ARGV[5]) + 1
local found = {}
if ARGV[3] == '' then
  found = redis.call('ZREVRANGEBYSCORE', index, '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, wanted)
else
  local ties = redis.call('ZREVRANGEBYSCORE', index, ARGV[3], ARGV[3], 'WITHSCORES')
  for i = 1, #ties, 2 do
    if ties[i] < ARGV[4] and #found < wanted * 2 then
      table.insert(found, ties[i])
      table.insert(found, ties[i + 1])
    end
  end
  if #found < wanted * 2 then
    local rest = redis.call('ZREVRANGEBYSCORE', index, '(' .. ARGV[3], '-inf', 'WITHSCORES', 'LIMIT', 0, wanted - #found / 2)
    for _, value in ipairs(rest) do table.insert(found, value) end
  end
end
local out = {}
for i = 1, #found, 2 do
  local id = sessionOfMember(found[i])
  table.insert(out, {id, redis.call('HGETALL', sessionKey(id)), found[i], found[i + 1]})
end
return out
`);

/** Settled user and assistant messages in the session's index (reasoning is not counted). ARGV: prefix, sessionId. */
export const COUNT_SESSION_MESSAGES = defineRedisScript(`
local count = 0
local json = P .. 'message-json:' .. ARGV[2]
for _, id in ipairs(redis.call('ZRANGE', P .. 'messages:' .. ARGV[2], 0, -1)) do
  local message = redis.call('HGET', json, id)
  if message and cjson.decode(message).role ~= 'reasoning' then count = count + 1 end
end
return count
`);

/**
 * Sets the subject's session title, with an expected title only while it is still that.
 * ARGV: prefix, sessionId, subjectId, title, '1' when an expected title is given, '1' when it is
 * null, the expected title. Returns {'updated', hash} | {'not_found'} | {'title_changed'}.
 */
export const UPDATE_SESSION_TITLE = defineRedisScript(`
local key = sessionKey(ARGV[2])
local s = redis.call('HMGET', key, 'subjectId', 'title')
if s[1] ~= ARGV[3] then return {'not_found'} end
if ARGV[5] == '1' then
  if ARGV[6] == '1' then
    if s[2] then return {'title_changed'} end
  elseif s[2] ~= ARGV[7] then
    return {'title_changed'}
  end
end
redis.call('HSET', key, 'title', ARGV[4])
return {'updated', redis.call('HGETALL', key)}
`);

/**
 * A session's settled messages newest first, before a cursor: up to limit + 1 message JSONs (all
 * when limit is -1), or nil when the cursor is not one of its messages. ARGV: prefix, sessionId,
 * before ('' for none), limit.
 */
export const LIST_MESSAGES = defineRedisScript(`
local index = P .. 'messages:' .. ARGV[2]
local top = '+inf'
if ARGV[3] ~= '' then
  local position = redis.call('ZSCORE', index, ARGV[3])
  if not position then return false end
  top = '(' .. position
end
local limit = tonumber(ARGV[4])
local ids
if limit < 0 then ids = redis.call('ZREVRANGEBYSCORE', index, top, '-inf')
else ids = redis.call('ZREVRANGEBYSCORE', index, top, '-inf', 'LIMIT', 0, limit + 1) end
local out = {}
for i, id in ipairs(ids) do out[i] = redis.call('HGET', P .. 'message-json:' .. ARGV[2], id) or '' end
return out
`);

/**
 * The final snapshots of a session's ended runs, oldest first: ARGV[2] sessionId. Returns
 * runId, snapshot JSON pairs, flat (a run still open has none and is skipped).
 */
export const LIST_FINAL_SNAPSHOTS = defineRedisScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGE', P .. 'session-runs:' .. ARGV[2], 0, -1)) do
  local snapshot = redis.call('HGET', runKey(id), 'finalSnapshot')
  if snapshot then
    out[#out + 1] = id
    out[#out + 1] = snapshot
  end
end
return out
`);

/**
 * Binds a subject's AG-UI thread to a session that exists (`AgentStorage.bindAgUiThread`): the
 * hash `ag-ui-threads` maps the JSON `[subjectId, threadId]` to the session, and the session's set
 * `session-ag-ui-threads:<sessionId>` lists its fields, so deleting the session deletes them.
 * ARGV: prefix, field, sessionId.
 */
export const BIND_AG_UI_THREAD = defineRedisScript(`
if redis.call('EXISTS', sessionKey(ARGV[3])) == 0 then return 0 end
local previous = redis.call('HGET', P .. 'ag-ui-threads', ARGV[2])
if previous then redis.call('SREM', P .. 'session-ag-ui-threads:' .. previous, ARGV[2]) end
redis.call('HSET', P .. 'ag-ui-threads', ARGV[2], ARGV[3])
redis.call('SADD', P .. 'session-ag-ui-threads:' .. ARGV[3], ARGV[2])
return 1
`);

/**
 * Keeps one vote (`AgentStorage.putFeedback`) in the run's hash of votes `feedback:<runId>`, by
 * person and message, replacing theirs; the run's deletion deletes the hash. ARGV: prefix, runId,
 * field (JSON `[subjectId, messageId]`), vote JSON. Returns 1, or 0 when the run does not exist.
 */
export const PUT_FEEDBACK = defineRedisScript(`
if redis.call('EXISTS', runKey(ARGV[2])) == 0 then return 0 end
redis.call('HSET', P .. 'feedback:' .. ARGV[2], ARGV[3], ARGV[4])
return 1
`);

/** Sets the AG-UI run serving a run that exists (its hash's `agUiRunId`). ARGV: prefix, runId, agUiRunId. */
export const SET_AG_UI_SEGMENT = defineRedisScript(`
if redis.call('EXISTS', runKey(ARGV[2])) == 0 then return 0 end
redis.call('HSET', runKey(ARGV[2]), 'agUiRunId', ARGV[3])
return 1
`);
