import { defineStorageScript } from './redis-script.ts';

/**
 * Looks an idempotency key up and inserts an `in_progress` record when none is live
 * (`AgentStorage.beginIdempotency`); one script, so of concurrent begins exactly one is `started`.
 * Values: recordId, fingerprint, token, now, lockedUntil, expiresAt.
 */
export const BEGIN_IDEMPOTENCY = defineStorageScript(
  'agentChatBeginIdempotency',
  ['idem', 'idemExpiry'],
  `
local recordId, fingerprint, token, now = A.recordId, A.fingerprint, A.token, tonumber(A.now)
local key = K.idem
local r = redis.call('HMGET', key, 'fingerprint', 'state', 'lockedUntil', 'expiresAt', 'response')
if r[1] and tonumber(r[4]) > now then
  if r[1] ~= fingerprint then return {'reused'} end
  if r[2] == 'completed' then return {'replay', r[5]} end
  if tonumber(r[3]) > now then return {'in_use'} end
end
redis.call('DEL', key)
redis.call('HSET', key, 'fingerprint', fingerprint, 'state', 'in_progress', 'token', token, 'lockedUntil', A.lockedUntil,
  'expiresAt', A.expiresAt)
redis.call('ZADD', K.idemExpiry, A.expiresAt, recordId)
return {'started'}
`,
);

/** Completes a record its token still holds. Values: recordId, token, response JSON, expiresAt. Returns 1 or 0. */
export const COMPLETE_IDEMPOTENCY = defineStorageScript(
  'agentChatCompleteIdempotency',
  ['idem', 'idemExpiry'],
  `
if not holdsIdempotency(A.recordId, A.token) then return 0 end
completeIdempotency(A.recordId, A.response, A.expiresAt)
return 1
`,
);

/** Removes an `in_progress` record its token still holds. Values: recordId, token. */
export const ABANDON_IDEMPOTENCY = defineStorageScript(
  'agentChatAbandonIdempotency',
  ['idem', 'idemExpiry'],
  `
if not holdsIdempotency(A.recordId, A.token) then return 0 end
redis.call('DEL', K.idem)
redis.call('ZREM', K.idemExpiry, A.recordId)
return 1
`,
);

/** Deletes the records that expired by `now`. Values: now. Returns how many. */
export const DELETE_EXPIRED_IDEMPOTENCY = defineStorageScript(
  'agentChatDeleteExpiredIdempotency',
  ['idemExpiry'],
  `
local ids = redis.call('ZRANGEBYSCORE', K.idemExpiry, '-inf', A.now)
for _, recordId in ipairs(ids) do redis.call('DEL', idemKey(recordId)) end
redis.call('ZREMRANGEBYSCORE', K.idemExpiry, '-inf', A.now)
return #ids
`,
);

/** Moves a lease's expiry if `owner` holds it. Values: runId, owner, expiresAt. Returns 1 or 0. */
export const RENEW_LEASE = defineStorageScript(
  'agentChatRenewLease',
  ['leases', 'leaseOwners'],
  `
if redis.call('HGET', K.leaseOwners, A.runId) ~= A.owner then return 0 end
redis.call('ZADD', K.leases, 'XX', A.expiresAt, A.runId)
return 1
`,
);

/**
 * Takes over the lease of a live run that expired by `now`; of racing takers exactly one wins.
 * Values: runId, owner, now, expiresAt. Returns 1 or 0.
 */
export const TAKE_EXPIRED_LEASE = defineStorageScript(
  'agentChatTakeExpiredLease',
  ['leases', 'leaseOwners', 'run'],
  `
local runId = A.runId
local score = redis.call('ZSCORE', K.leases, runId)
if not score or tonumber(score) > tonumber(A.now) then return 0 end
local run = redis.call('HMGET', K.run, 'sessionId', 'endedAt')
if not run[1] or run[2] then return 0 end
redis.call('ZADD', K.leases, A.expiresAt, runId)
redis.call('HSET', K.leaseOwners, runId, A.owner)
return 1
`,
);

/** Leases expired by `now`, oldest first: flat runId, owner, expiresAt. Values: now, limit. */
export const LIST_EXPIRED_LEASES = defineStorageScript(
  'agentChatListExpiredLeases',
  ['leases', 'leaseOwners'],
  `
local expired = redis.call('ZRANGEBYSCORE', K.leases, '-inf', A.now, 'WITHSCORES', 'LIMIT', 0, tonumber(A.limit))
local out = {}
for i = 1, #expired, 2 do
  table.insert(out, expired[i])
  table.insert(out, redis.call('HGET', K.leaseOwners, expired[i]) or '')
  table.insert(out, expired[i + 1])
end
return out
`,
);

/** The stored value of a setting, storing the proposed one first when there is none. Values: name, proposed. */
export const GET_OR_CREATE_SETTING = defineStorageScript(
  'agentChatGetOrCreateSetting',
  ['settings'],
  `
redis.call('HSETNX', K.settings, A.name, A.proposed)
return redis.call('HGET', K.settings, A.name)
`,
);

/** How many sessions and runs are kept. No values. */
export const COUNTS = defineStorageScript(
  'agentChatCounts',
  ['sessions', 'runs'],
  `
return {redis.call('ZCARD', K.sessions), redis.call('ZCARD', K.runs)}
`,
);

/**
 * A subject's sessions by latest activity (the activity set: score `updatedAt`, members
 * `<position>:<sessionId>`, so equal times are latest created first), after a keyset cursor: up to
 * limit + 1 rows `{sessionId, hash, member, score}`. Values: subjectId, cursorScore ('' for
 * the first page), cursorMember, limit.
 */
export const LIST_SESSIONS = defineStorageScript(
  'agentChatListSessions',
  ['subjectActivity'],
  `
local index = K.subjectActivity
local wanted = tonumber(A.limit) + 1
local found = {}
if A.cursorScore == '' then
  found = redis.call('ZREVRANGEBYSCORE', index, '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, wanted)
else
  local ties = redis.call('ZREVRANGEBYSCORE', index, A.cursorScore, A.cursorScore, 'WITHSCORES')
  for i = 1, #ties, 2 do
    if ties[i] < A.cursorMember and #found < wanted * 2 then
      table.insert(found, ties[i])
      table.insert(found, ties[i + 1])
    end
  end
  if #found < wanted * 2 then
    local rest = redis.call('ZREVRANGEBYSCORE', index, '(' .. A.cursorScore, '-inf', 'WITHSCORES', 'LIMIT', 0, wanted - #found / 2)
    for _, value in ipairs(rest) do table.insert(found, value) end
  end
end
local out = {}
for i = 1, #found, 2 do
  local id = sessionOfMember(found[i])
  table.insert(out, {id, redis.call('HGETALL', sessionKey(id)), found[i], found[i + 1]})
end
return out
`,
);

/** Settled user and assistant messages in the session's index (reasoning is not counted). Values: sessionId. */
export const COUNT_SESSION_MESSAGES = defineStorageScript(
  'agentChatCountSessionMessages',
  ['messages', 'messageJson'],
  `
local count = 0
local json = K.messageJson
for _, id in ipairs(redis.call('ZRANGE', K.messages, 0, -1)) do
  local message = redis.call('HGET', json, id)
  if message and cjson.decode(message).role ~= 'reasoning' then count = count + 1 end
end
return count
`,
);

/**
 * Sets the subject's session title, with an expected title only while it is still that.
 * Values: sessionId, subjectId, title, hasExpected ('1' when an expected title is given),
 * expectsNone ('1' when it is null), expectedTitle. Returns {'updated', hash} | {'not_found'} | {'title_changed'}.
 */
export const UPDATE_SESSION_TITLE = defineStorageScript(
  'agentChatUpdateSessionTitle',
  ['session'],
  `
local key = K.session
local s = redis.call('HMGET', key, 'subjectId', 'title')
if s[1] ~= A.subjectId then return {'not_found'} end
if A.hasExpected == '1' then
  if A.expectsNone == '1' then
    if s[2] then return {'title_changed'} end
  elseif s[2] ~= A.expectedTitle then
    return {'title_changed'}
  end
end
redis.call('HSET', key, 'title', A.title)
return {'updated', redis.call('HGETALL', key)}
`,
);

/**
 * A session's settled messages newest first, before a cursor: up to limit + 1 message JSONs (all
 * when limit is -1), or nil when the cursor is not one of its messages. Values: sessionId,
 * before ('' for none), limit.
 */
export const LIST_MESSAGES = defineStorageScript(
  'agentChatListMessages',
  ['messages', 'messageJson'],
  `
local index = K.messages
local top = '+inf'
if A.before ~= '' then
  local position = redis.call('ZSCORE', index, A.before)
  if not position then return false end
  top = '(' .. position
end
local limit = tonumber(A.limit)
local ids
if limit < 0 then ids = redis.call('ZREVRANGEBYSCORE', index, top, '-inf')
else ids = redis.call('ZREVRANGEBYSCORE', index, top, '-inf', 'LIMIT', 0, limit + 1) end
local out = {}
for i, id in ipairs(ids) do out[i] = redis.call('HGET', K.messageJson, id) or '' end
return out
`,
);

/**
 * The final snapshots of a session's ended runs, oldest first. Values: sessionId. Returns
 * runId, snapshot JSON pairs, flat (a run still open has none and is skipped).
 */
export const LIST_FINAL_SNAPSHOTS = defineStorageScript(
  'agentChatListFinalSnapshots',
  ['sessionRuns'],
  `
local out = {}
for _, id in ipairs(redis.call('ZRANGE', K.sessionRuns, 0, -1)) do
  local snapshot = redis.call('HGET', runKey(id), 'finalSnapshot')
  if snapshot then
    out[#out + 1] = id
    out[#out + 1] = snapshot
  end
end
return out
`,
);

/**
 * A session's runs as links of its conversation tree, oldest first (`AgentStorage.listTurnLinks`),
 * without reading a message or a snapshot: per run `{runId, userMessageId, parentKind, parent,
 * replacesRunId, lastMessageId}`. parentKind is 'id' (parent is `start.parentMessageId`), 'null'
 * (JSON null: the conversation's start), 'absent' (a run made before branches) or 'json' (the start
 * did not decode here: parent is its JSON, read by the caller); replacesRunId is `start.replacesRunId`
 * and lastMessageId the last of the run's `messageIds` (set by the terminal append), each nil when
 * there is none. No values.
 */
export const LIST_TURN_LINKS = defineStorageScript(
  'agentChatListTurnLinks',
  ['sessionRuns'],
  `
local out = {}
for _, id in ipairs(redis.call('ZRANGE', K.sessionRuns, 0, -1)) do
  local run = redis.call('HMGET', runKey(id), 'userMessageId', 'start', 'messageIds')
  if run[1] then
    local kind, parent, replaces, last = 'absent', false, false, false
    local isDecoded, start = pcall(cjson.decode, run[2] or '{}')
    if not isDecoded or type(start) ~= 'table' then
      kind, parent = 'json', run[2] or '{}'
    else
      if type(start.parentMessageId) == 'string' then kind, parent = 'id', start.parentMessageId
      elseif start.parentMessageId == cjson.null then kind = 'null' end
      if type(start.replacesRunId) == 'string' then replaces = start.replacesRunId end
    end
    if run[3] then
      local ids = cjson.decode(run[3])
      if type(ids[#ids]) == 'string' then last = ids[#ids] end
    end
    out[#out + 1] = {id, run[1], kind, parent, replaces, last}
  end
end
return out
`,
);

/**
 * Binds a subject's AG-UI thread to a session that exists (`AgentStorage.bindAgUiThread`): the
 * hash `ag-ui-threads` maps the JSON `[subjectId, threadId]` to the session, and the session's set
 * `session-ag-ui-threads:<sessionId>` lists its fields, so deleting the session deletes them.
 * Values: field, sessionId.
 */
export const BIND_AG_UI_THREAD = defineStorageScript(
  'agentChatBindAgUiThread',
  ['session', 'agUiThreads'],
  `
if redis.call('EXISTS', K.session) == 0 then return 0 end
local previous = redis.call('HGET', K.agUiThreads, A.field)
if previous then redis.call('SREM', P .. 'session-ag-ui-threads:' .. previous, A.field) end
redis.call('HSET', K.agUiThreads, A.field, A.sessionId)
redis.call('SADD', P .. 'session-ag-ui-threads:' .. A.sessionId, A.field)
return 1
`,
);

/**
 * Keeps one vote (`AgentStorage.putFeedback`) in the run's hash of votes `feedback:<runId>`, by
 * person and message, replacing theirs; the run's deletion deletes the hash. Values: runId,
 * field (JSON `[subjectId, messageId]`), vote JSON. Returns 1, or 0 when the run does not exist.
 */
export const PUT_FEEDBACK = defineStorageScript(
  'agentChatPutFeedback',
  ['run', 'feedback'],
  `
if redis.call('EXISTS', K.run) == 0 then return 0 end
redis.call('HSET', K.feedback, A.field, A.vote)
return 1
`,
);

/** Sets the AG-UI run serving a run that exists (its hash's `agUiRunId`). Values: runId, agUiRunId. */
export const SET_AG_UI_SEGMENT = defineStorageScript(
  'agentChatSetAgUiSegment',
  ['run'],
  `
if redis.call('EXISTS', K.run) == 0 then return 0 end
redis.call('HSET', K.run, 'agUiRunId', A.agUiRunId)
return 1
`,
);
