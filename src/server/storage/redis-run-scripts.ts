import { defineRedisScript } from './redis-script.ts';

/**
 * Commits a run (`AgentStorage.createRun`), all or nothing: every check runs before the first write.
 * ARGV: prefix, mode (`new`|`existing`), sessionId, run subjectId, the run's agent version, runId,
 * userMessageId, createdAt, start JSON, RUN_STARTED JSON, title (`hasTitle` 1|0 then the title),
 * lease owner, lease expiresAt, idempotency recordId ('' for none), token, response JSON,
 * expiresAt, for a new session its subjectId, createdAt, has-title and title ('' and '0' when
 * existing), then the run it replaces ('' for none: a retry, which must be the session's latest run
 * and whose messages leave the session's index `messages:<sessionId>`). The run joins
 * its subject's set of active runs (`subject-active:<subjectId>`), which the terminal append leaves,
 * and counts in its subject's holdings (`holdings:sessions`, `holdings:runs`: what the store caps weigh).
 * Returns `{'created', <session hash>}` or the refusal with its detail.
 */
export const CREATE_RUN = defineRedisScript(`
local mode, sessionId, subjectId, versionId, runId = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local userMessageId, createdAt, startJson, startedJson = ARGV[7], ARGV[8], ARGV[9], ARGV[10]
local hasTitle, title, leaseOwner, leaseExpiresAt = ARGV[11] == '1', ARGV[12], ARGV[13], ARGV[14]
local idemId, idemToken, idemResponse, idemExpiresAt = ARGV[15], ARGV[16], ARGV[17], ARGV[18]
local key = sessionKey(sessionId)
if mode == 'existing' then
  local s = redis.call('HMGET', key, 'subjectId', 'agentVersionId', 'activeRunId')
  if not s[1] or s[1] ~= subjectId then return {'session_not_found'} end
  if s[2] ~= versionId then return {'version_mismatch', s[2]} end
  if s[3] then return {'run_active', s[3]} end
end
local replaces = ARGV[23]
if replaces ~= '' and redis.call('HGET', key, 'lastRunId') ~= replaces then return {'not_latest_run'} end
if idemId ~= '' and not holdsIdempotency(idemId, idemToken) then return {'idempotency_lost'} end
if replaces ~= '' then
  local replacedIds = redis.call('HGET', runKey(replaces), 'messageIds')
  if replacedIds then
    for _, id in ipairs(cjson.decode(replacedIds)) do redis.call('ZREM', P .. 'messages:' .. sessionId, id) end
  end
end
if mode == 'new' then
  local sessionSubject = ARGV[19]
  local position = redis.call('HINCRBY', P .. 'counters', 'session', 1)
  redis.call('HSET', key, 'subjectId', sessionSubject, 'agentVersionId', versionId, 'createdAt', ARGV[20],
    'position', position)
  if ARGV[21] == '1' then redis.call('HSET', key, 'title', ARGV[22]) end
  redis.call('ZADD', P .. 'sessions', position, sessionId)
  redis.call('ZADD', P .. 'subject-sessions:' .. sessionSubject, position, sessionId)
  redis.call('ZINCRBY', P .. 'holdings:sessions', 1, sessionSubject)
end
redis.call('HSET', key, 'activeRunId', runId, 'lastRunId', runId, 'updatedAt', createdAt)
if hasTitle and redis.call('HEXISTS', key, 'title') == 0 then redis.call('HSET', key, 'title', title) end
touchActivity(sessionId, createdAt)
local runPosition = redis.call('HINCRBY', P .. 'counters', 'run', 1)
redis.call('HSET', runKey(runId), 'sessionId', sessionId, 'subjectId', subjectId, 'userMessageId', userMessageId,
  'createdAt', createdAt, 'start', startJson, 'firstSeq', 1, 'lastSeq', 1, 'compacted', 0)
redis.call('ZADD', P .. 'runs', runPosition, runId)
redis.call('SADD', P .. 'subject-active:' .. subjectId, runId)
redis.call('ZINCRBY', P .. 'holdings:runs', 1, subjectId)
redis.call('ZADD', P .. 'session-runs:' .. sessionId, runPosition, runId)
redis.call('XADD', streamKey(runId), '1-0', 'e', startedJson)
redis.call('ZADD', P .. 'leases', leaseExpiresAt, runId)
redis.call('HSET', P .. 'lease-owners', runId, leaseOwner)
if idemId ~= '' then completeIdempotency(idemId, idemResponse, idemExpiresAt) end
return {'created', redis.call('HGETALL', key)}
`);

/**
 * Appends a batch after the expected last seq (`AgentStorage.appendEvents`). The entry ids are
 * `<seq>-0`, so besides the fence on the run's last seq Redis itself refuses an id that does not
 * follow the stream's last one; every check runs before the first write. ARGV: prefix, runId,
 * expectedLastSeq, n, n envelope JSONs, then ending (1|0), endedAt, final snapshot JSON (no
 * messages), message ids JSON, m, m pairs of message id and JSON, then idempotency recordId ('' for
 * none), token, response JSON, expiresAt. Returns `{'ok'}`, `{'missing'}`, `{'closed'}`,
 * `{'conflict', lastSeq}` or `{'idempotency_lost'}`.
 */
export const APPEND_EVENTS = defineRedisScript(`
local runId, expected, n = ARGV[2], ARGV[3], tonumber(ARGV[4])
local run = redis.call('HMGET', runKey(runId), 'sessionId', 'lastSeq', 'endedAt', 'subjectId')
if not run[1] then return {'missing'} end
if run[3] then return {'closed'} end
if run[2] ~= expected then return {'conflict', run[2]} end
local at = 5 + n
local isEnding, endedAt, snapshot, messageIds, m = ARGV[at] == '1', ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], tonumber(ARGV[at + 4])
local idemAt = at + 5 + 2 * m
local idemId = ARGV[idemAt]
if idemId ~= '' and not holdsIdempotency(idemId, ARGV[idemAt + 1]) then return {'idempotency_lost'} end
if n == 0 then return {'ok'} end
local base = tonumber(expected)
for i = 1, n do redis.call('XADD', streamKey(runId), string.format('%d-0', base + i), 'e', ARGV[4 + i]) end
local lastSeq = string.format('%d', base + n)
redis.call('HSET', runKey(runId), 'lastSeq', lastSeq)
if isEnding then
  local sessionId = run[1]
  redis.call('HSET', runKey(runId), 'endedAt', endedAt, 'finalSnapshot', snapshot, 'messageIds', messageIds)
  for i = 1, m do
    local position = redis.call('HINCRBY', P .. 'counters', 'message', 1)
    local id = ARGV[at + 3 + 2 * i]
    redis.call('ZADD', P .. 'messages:' .. sessionId, position, id)
    redis.call('HSET', P .. 'message-json:' .. sessionId, id, ARGV[at + 4 + 2 * i])
  end
  local key = sessionKey(sessionId)
  if redis.call('HGET', key, 'activeRunId') == runId then redis.call('HDEL', key, 'activeRunId') end
  if redis.call('EXISTS', key) == 1 then
    redis.call('HSET', key, 'updatedAt', endedAt)
    touchActivity(sessionId, endedAt)
  end
  redis.call('ZADD', P .. 'ended', endedAt, runId)
  redis.call('SREM', P .. 'subject-active:' .. run[4], runId)
  redis.call('ZREM', P .. 'leases', runId)
  redis.call('HDEL', P .. 'lease-owners', runId)
end
if idemId ~= '' then completeIdempotency(idemId, ARGV[idemAt + 2], ARGV[idemAt + 3]) end
return {'ok'}
`);

/**
 * Reads a run: `{<run hash>, <message JSONs of an ended run>}`, or nil. ARGV: prefix, runId.
 */
export const GET_RUN = defineRedisScript(`
local run = redis.call('HGETALL', runKey(ARGV[2]))
if #run == 0 then return false end
local fields = {}
for i = 1, #run, 2 do fields[run[i]] = run[i + 1] end
local messages = {}
if fields.messageIds then
  local ids = cjson.decode(fields.messageIds)
  for i = 1, #ids do
    messages[i] = redis.call('HGET', P .. 'message-json:' .. fields.sessionId, ids[i]) or ''
  end
end
return {run, messages}
`);

/**
 * Drops the streams of runs that ended before a time, oldest first (`AgentStorage.compactEndedRuns`):
 * each run keeps its hash with its final snapshot, and `firstSeq` moves past its last seq.
 * ARGV: prefix, endedBefore, limit. Returns how many.
 */
export const COMPACT_ENDED_RUNS = defineRedisScript(`
local ids = redis.call('ZRANGEBYSCORE', P .. 'ended', '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, runId in ipairs(ids) do
  redis.call('DEL', streamKey(runId))
  local lastSeq = tonumber(redis.call('HGET', runKey(runId), 'lastSeq'))
  redis.call('HSET', runKey(runId), 'firstSeq', string.format('%d', lastSeq + 1), 'compacted', 1)
  redis.call('ZREM', P .. 'ended', runId)
end
return #ids
`);
