import { defineStorageScript } from './redis-script.ts';

/**
 * Lua shared by the scripts that move runs out of a session's history and back: the history is the
 * sorted set `messages:<sessionId>`, scored by the shard's message counter when each message
 * settled, and the terminal append keeps those scores in the run's hash (`messagePositions`, JSON
 * strings in the order of `messageIds`), so `enterHistory` puts a run's messages back at the
 * place they had. A run settled before that field existed gets it when it first leaves (its
 * scores then); one that left before it (a retry's replaced run) has none, and comes back with new
 * scores, after the history it finds. Runs that are not ended runs of the session are ignored;
 * both are idempotent.
 */
const HISTORY_MOVES = `
local function settledMessages(sessionId, runId)
  local run = redis.call('HMGET', runKey(runId), 'sessionId', 'endedAt', 'messageIds', 'messagePositions')
  if run[1] ~= sessionId or not run[2] or not run[3] then return {}, nil end
  return cjson.decode(run[3]), run[4] and cjson.decode(run[4])
end
local function leaveHistory(sessionId, runId)
  local ids, positions = settledMessages(sessionId, runId)
  local index = P .. 'messages:' .. sessionId
  if #ids > 0 and not positions then
    local scores = {}
    for _, id in ipairs(ids) do
      local score = redis.call('ZSCORE', index, id)
      if score then scores[#scores + 1] = score end
    end
    if #scores == #ids then redis.call('HSET', runKey(runId), 'messagePositions', cjson.encode(scores)) end
  end
  for _, id in ipairs(ids) do redis.call('ZREM', index, id) end
end
local function enterHistory(sessionId, runId)
  local ids, positions = settledMessages(sessionId, runId)
  if #ids == 0 then return end
  local index = P .. 'messages:' .. sessionId
  if not positions or #positions ~= #ids then
    positions = {}
    for i, id in ipairs(ids) do
      positions[i] = redis.call('ZSCORE', index, id)
        or string.format('%d', redis.call('HINCRBY', P .. 'counters', 'message', 1))
    end
    redis.call('HSET', runKey(runId), 'messagePositions', cjson.encode(positions))
  end
  for i, id in ipairs(ids) do redis.call('ZADD', index, positions[i], id) end
end
`;

/**
 * Commits a run (`AgentStorage.createRun`), all or nothing: every check runs before the first write.
 * Keys: the session, the run, its stream, the counters, the subject's active runs
 * (`subject-active:<subjectId>`, which the terminal append leaves), the session's runs and the
 * idempotency record (`idem:` with an empty id for none). Values: mode (`new`|`existing`),
 * sessionId, subjectId, versionId (the run's agent version), runId, userMessageId, createdAt, start
 * and started (JSON of the start and RUN_STARTED), hasTitle (1|0) and title, leaseOwner,
 * leaseExpiresAt, idemId ('' for none), idemToken, idemResponse, idemExpiresAt; for a new session
 * sessionSubject, sessionCreatedAt, sessionHasTitle and sessionTitle; replaces, the run it replaces
 * ('' for none: a retry, which must be the session's latest run and whose messages leave the
 * session's history `messages:<sessionId>`); leaves, the ended runs whose messages leave it too
 * (a branch made beside them). Returns `{'created', <session hash>}` or the refusal with its
 * detail.
 */
export const CREATE_RUN = defineStorageScript(
  'agentChatCreateRun',
  ['session', 'run', 'stream', 'counters', 'subjectActive', 'sessionRuns', 'idem'],
  `${HISTORY_MOVES}
local mode, sessionId, subjectId, versionId, runId = A.mode, A.sessionId, A.subjectId, A.versionId, A.runId
local userMessageId, createdAt, startJson, startedJson = A.userMessageId, A.createdAt, A.start, A.started
local hasTitle, title, leaseOwner, leaseExpiresAt = A.hasTitle == '1', A.title, A.leaseOwner, A.leaseExpiresAt
local idemId, idemToken, idemResponse, idemExpiresAt = A.idemId, A.idemToken, A.idemResponse, A.idemExpiresAt
local key = K.session
if mode == 'existing' then
  local s = redis.call('HMGET', key, 'subjectId', 'agentVersionId', 'activeRunId')
  if not s[1] or s[1] ~= subjectId then return {'session_not_found'} end
  if s[2] ~= versionId then return {'version_mismatch', s[2]} end
  if s[3] then return {'run_active', s[3]} end
end
local replaces = A.replaces
if replaces ~= '' and redis.call('HGET', key, 'lastRunId') ~= replaces then return {'not_latest_run'} end
if idemId ~= '' and not holdsIdempotency(idemId, idemToken) then return {'idempotency_lost'} end
if replaces ~= '' then leaveHistory(sessionId, replaces) end
for _, id in ipairs(A.leaves or {}) do leaveHistory(sessionId, id) end
if mode == 'new' then
  local sessionSubject = A.sessionSubject
  local position = redis.call('HINCRBY', K.counters, 'session', 1)
  redis.call('HSET', key, 'subjectId', sessionSubject, 'agentVersionId', versionId, 'createdAt', A.sessionCreatedAt,
    'position', position)
  if A.sessionHasTitle == '1' then redis.call('HSET', key, 'title', A.sessionTitle) end
  redis.call('ZADD', P .. 'sessions', position, sessionId)
  redis.call('ZADD', P .. 'subject-sessions:' .. sessionSubject, position, sessionId)
end
redis.call('HSET', key, 'activeRunId', runId, 'lastRunId', runId, 'updatedAt', createdAt)
if hasTitle and redis.call('HEXISTS', key, 'title') == 0 then redis.call('HSET', key, 'title', title) end
touchActivity(sessionId, createdAt)
local runPosition = redis.call('HINCRBY', K.counters, 'run', 1)
redis.call('HSET', K.run, 'sessionId', sessionId, 'subjectId', subjectId, 'userMessageId', userMessageId,
  'createdAt', createdAt, 'start', startJson, 'firstSeq', 1, 'lastSeq', 1, 'compacted', 0)
redis.call('ZADD', P .. 'runs', runPosition, runId)
redis.call('SADD', K.subjectActive, runId)
redis.call('ZADD', K.sessionRuns, runPosition, runId)
redis.call('XADD', K.stream, '1-0', 'e', startedJson)
redis.call('ZADD', P .. 'leases', leaseExpiresAt, runId)
redis.call('HSET', P .. 'lease-owners', runId, leaseOwner)
if idemId ~= '' then completeIdempotency(idemId, idemResponse, idemExpiresAt) end
return {'created', redis.call('HGETALL', key)}
`,
);

/**
 * Appends batches of events, each after its run's expected last seq (`AgentStorage.appendEvents`;
 * the storage sends the batches of one event-loop turn in one call, each fenced and applied on its
 * own, in order). The entry ids are `<seq>-0`, so besides the fence on the run's last seq Redis
 * itself refuses an id that does not follow the stream's last one; every check of a batch runs
 * before its first write. Keys: for each batch its run, its stream and its idempotency record
 * (`idem:` with an empty id for none). Values: batches, one JSON object each: runId,
 * expectedLastSeq, events (envelope JSONs), ending (1|0), endedAt, snapshot (final snapshot JSON
 * without messages), messageIds (JSON), messages (flat message id, JSON pairs), then idemId (''
 * for none), idemToken, idemResponse, idemExpiresAt. The terminal batch keeps the scores its
 * messages got in the history in the run's `messagePositions` (see `HISTORY_MOVES`). Returns, per
 * batch, `{'ok'}`, `{'missing'}`, `{'closed'}`, `{'conflict', lastSeq}` or `{'idempotency_lost'}`.
 */
export const APPEND_EVENTS = defineStorageScript(
  'agentChatAppendEvents',
  [],
  `
local function append(runKey, stream, B)
  local runId, expected, events = B.runId, B.expectedLastSeq, B.events
  local n = #events
  local run = redis.call('HMGET', runKey, 'sessionId', 'lastSeq', 'endedAt', 'subjectId')
  if not run[1] then return {'missing'} end
  if run[3] then return {'closed'} end
  if run[2] ~= expected then return {'conflict', run[2]} end
  local isEnding, endedAt, snapshot, messageIds, messages = B.ending == '1', B.endedAt, B.snapshot, B.messageIds, B.messages
  local idemId = B.idemId
  if idemId ~= '' and not holdsIdempotency(idemId, B.idemToken) then return {'idempotency_lost'} end
  if n == 0 then return {'ok'} end
  local base = tonumber(expected)
  for i = 1, n do redis.call('XADD', stream, string.format('%d-0', base + i), 'e', events[i]) end
  redis.call('HSET', runKey, 'lastSeq', string.format('%d', base + n))
  if isEnding then
    local sessionId = run[1]
    redis.call('HSET', runKey, 'endedAt', endedAt, 'finalSnapshot', snapshot, 'messageIds', messageIds)
    local positions = {}
    for i = 1, #messages, 2 do
      local position = redis.call('HINCRBY', P .. 'counters', 'message', 1)
      local id = messages[i]
      redis.call('ZADD', P .. 'messages:' .. sessionId, position, id)
      redis.call('HSET', P .. 'message-json:' .. sessionId, id, messages[i + 1])
      positions[#positions + 1] = string.format('%d', position)
    end
    if #positions > 0 then redis.call('HSET', runKey, 'messagePositions', cjson.encode(positions)) end
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
  if idemId ~= '' then completeIdempotency(idemId, B.idemResponse, B.idemExpiresAt) end
  return {'ok'}
end
local replies = {}
for i, json in ipairs(A.batches) do
  replies[i] = append(KEYS[3 * i - 2], KEYS[3 * i - 1], cjson.decode(json))
end
return replies
`,
);

/** Reads a run: `{<run hash>, <message JSONs of an ended run>}`, or nil. Keys: the run. */
export const GET_RUN = defineStorageScript(
  'agentChatGetRun',
  ['run'],
  `
local run = redis.call('HGETALL', K.run)
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
`,
);

/**
 * Drops the streams of runs that ended before a time, oldest first (`AgentStorage.compactEndedRuns`):
 * each run keeps its hash with its final snapshot, and `firstSeq` moves past its last seq.
 * Keys: the set of ended runs. Values: endedBefore, limit. Returns how many.
 */
export const COMPACT_ENDED_RUNS = defineStorageScript(
  'agentChatCompactEndedRuns',
  ['ended'],
  `
local ids = redis.call('ZRANGEBYSCORE', K.ended, '-inf', '(' .. A.endedBefore, 'LIMIT', 0, tonumber(A.limit))
for _, runId in ipairs(ids) do
  redis.call('DEL', streamKey(runId))
  local lastSeq = tonumber(redis.call('HGET', runKey(runId), 'lastSeq'))
  redis.call('HSET', runKey(runId), 'firstSeq', string.format('%d', lastSeq + 1), 'compacted', 1)
  redis.call('ZREM', K.ended, runId)
end
return #ids
`,
);

/**
 * Shows another branch of the subject's session (`AgentStorage.showBranch`): unless it has an active
 * run, the messages of the runs `leave` leave its history and those of `enter` come back at their
 * scores (`HISTORY_MOVES`). Keys: the session. Values: sessionId, subjectId, leave, enter (run ids).
 * Returns `{'shown', <session hash>}`, `{'not_found'}` or `{'run_active', runId}`.
 */
export const SHOW_BRANCH = defineStorageScript(
  'agentChatShowBranch',
  ['session'],
  `${HISTORY_MOVES}
local s = redis.call('HMGET', K.session, 'subjectId', 'activeRunId')
if s[1] ~= A.subjectId then return {'not_found'} end
if s[2] then return {'run_active', s[2]} end
for _, id in ipairs(A.leave) do leaveHistory(A.sessionId, id) end
for _, id in ipairs(A.enter) do enterHistory(A.sessionId, id) end
return {'shown', redis.call('HGETALL', K.session)}
`,
);
