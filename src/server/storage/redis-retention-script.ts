import { defineStorageScript } from './redis-script.ts';

/**
 * Lua shared by the scripts that delete sessions: `deleteRun(runId)` and `deleteSession(id)` (with
 * all its runs, logs, messages and index entries), recording what went in `deletedSessions` and
 * `deletedRuns`.
 */
const SESSION_DELETION = `
local deletedSessions, deletedRuns = {}, {}

local function deleteRun(runId)
  local run = redis.call('HMGET', runKey(runId), 'sessionId', 'messageIds', 'subjectId')
  if not run[1] then return end
  redis.call('SREM', P .. 'subject-active:' .. run[3], runId)
  if run[2] then
    for _, id in ipairs(cjson.decode(run[2])) do
      redis.call('ZREM', P .. 'messages:' .. run[1], id)
      redis.call('HDEL', P .. 'message-json:' .. run[1], id)
    end
  end
  redis.call('DEL', runKey(runId), streamKey(runId), P .. 'feedback:' .. runId)
  redis.call('ZREM', P .. 'runs', runId)
  redis.call('ZREM', P .. 'session-runs:' .. run[1], runId)
  redis.call('ZREM', P .. 'ended', runId)
  redis.call('ZREM', P .. 'leases', runId)
  redis.call('HDEL', P .. 'lease-owners', runId)
  table.insert(deletedRuns, runId)
end

local function deleteSession(sessionId)
  local s = redis.call('HMGET', sessionKey(sessionId), 'position', 'subjectId')
  for _, runId in ipairs(redis.call('ZRANGE', P .. 'session-runs:' .. sessionId, 0, -1)) do deleteRun(runId) end
  local threads = redis.call('SMEMBERS', P .. 'session-ag-ui-threads:' .. sessionId)
  if #threads > 0 then redis.call('HDEL', P .. 'ag-ui-threads', unpack(threads)) end
  redis.call('DEL', sessionKey(sessionId), P .. 'session-runs:' .. sessionId, P .. 'messages:' .. sessionId,
    P .. 'message-json:' .. sessionId, P .. 'session-ag-ui-threads:' .. sessionId)
  local member = activityMember(s[1], sessionId)
  redis.call('ZREM', P .. 'sessions', sessionId)
  redis.call('ZREM', P .. 'subject-sessions:' .. s[2], sessionId)
  redis.call('ZREM', P .. 'activity', member)
  redis.call('ZREM', P .. 'subject-activity:' .. s[2], member)
  table.insert(deletedSessions, sessionId)
end

`;

/**
 * Deletes the subject's session unless it has an active run (`AgentStorage.deleteSession`), in one
 * script. Keys: the session. Values: sessionId, subjectId. Returns {'deleted', runIds} |
 * {'not_found'} | {'run_active', runId}.
 */
export const DELETE_SESSION = defineStorageScript(
  'agentChatDeleteSession',
  ['session'],
  `${SESSION_DELETION}
local s = redis.call('HMGET', K.session, 'subjectId', 'activeRunId')
if s[1] ~= A.subjectId then return {'not_found'} end
if s[2] then return {'run_active', s[2]} end
deleteSession(A.sessionId)
return {'deleted', deletedRuns}
`,
);

/**
 * Lua shared by the retention scripts: which sessions may go, and `oldestEvictable(protectedFrom)`,
 * the session the store caps delete next in this shard: the least recently active one without an
 * active run, other than `touched`, idle since `protectedFrom` (the activity set is walked in
 * pages, so only the sessions with an active run among the oldest are read past).
 */
const EVICTION = `
local function isEvictable(sessionId)
  return sessionId ~= touched and redis.call('HEXISTS', sessionKey(sessionId), 'activeRunId') == 0
end

-- Its activity member and time, or nil.
local function oldestEvictable(protectedFrom)
  local offset = 0
  while true do
    local page = redis.call('ZRANGEBYSCORE', P .. 'activity', '-inf', protectedFrom, 'WITHSCORES', 'LIMIT', offset, 100)
    if #page == 0 then return nil end
    for i = 1, #page, 2 do
      if isEvictable(sessionOfMember(page[i])) then return page[i], tonumber(page[i + 1]) end
    end
    offset = offset + 100
  end
end
`;

/**
 * Deletes what the caps and the idle TTL do not keep (`AgentStorage.enforceRetention`), in one
 * script, with the same order as the other stores: least recently active first (equal times in
 * creation order), never a session with an active run nor the touched one; past the store caps,
 * only sessions idle since `protectedFrom`. The activity sets are walked in pages, so a create at
 * the cap reads little more than what it evicts. On Redis Cluster it runs in one shard with
 * `storeCaps` '0', and the store caps are applied over the shards with {@link NEXT_EVICTION} and
 * {@link EVICT_SESSION} (`redis-shard-sweeps.ts`). Keys: the shard's sets of all sessions, runs
 * and activity. Values: cutoff (`now - sessionIdleTtlMs`), protectedFrom (`now -
 * protectActiveSessionsMs`), maxSessionsPerSubject, maxRunsPerSession, maxSessions, maxRuns,
 * storeCaps ('1': apply the store caps here), touched (the touched sessionId, '' for a sweep),
 * touchedSubject. Returns `{sessionIds, runIds}`.
 */
export const ENFORCE_RETENTION = defineStorageScript(
  'agentChatEnforceRetention',
  ['sessions', 'runs', 'activity'],
  `${SESSION_DELETION}
local cutoff, maxPerSubject, maxRunsPerSession = A.cutoff, tonumber(A.maxSessionsPerSubject), tonumber(A.maxRunsPerSession)
local maxSessions, maxRuns, touched, touchedSubject = tonumber(A.maxSessions), tonumber(A.maxRuns), A.touched, A.touchedSubject
${EVICTION}
-- Walks an activity set oldest first (up to 'top'), evicting while shouldGoOn() says so. What is
-- evicted leaves the set, so the next page starts after the sessions that were kept.
local function evictOldest(set, top, shouldGoOn)
  local kept = 0
  while shouldGoOn() do
    local page = redis.call('ZRANGEBYSCORE', set, '-inf', top, 'LIMIT', kept, 100)
    if #page == 0 then return end
    for _, member in ipairs(page) do
      if not shouldGoOn() then return end
      local sessionId = sessionOfMember(member)
      if isEvictable(sessionId) then deleteSession(sessionId) else kept = kept + 1 end
    end
  end
end

if touched ~= '' then
  local own = redis.call('ZRANGE', P .. 'session-runs:' .. touched, 0, -1)
  for i = 1, #own - math.max(1, maxRunsPerSession) do deleteRun(own[i]) end
  local excess = redis.call('ZCARD', P .. 'subject-sessions:' .. touchedSubject) - maxPerSubject
  local before = #deletedSessions
  evictOldest(P .. 'subject-activity:' .. touchedSubject, '+inf', function()
    return #deletedSessions - before < excess
  end)
end
if A.storeCaps == '1' then
  evictOldest(K.activity, A.protectedFrom, function()
    return redis.call('ZCARD', K.sessions) > maxSessions or redis.call('ZCARD', K.runs) > maxRuns
  end)
end
if touched == '' then
  evictOldest(K.activity, cutoff, function() return true end)
end
return {deletedSessions, deletedRuns}
`,
);

/**
 * The shard's candidate for the store caps on Redis Cluster, and what `checkSessionRoom` looks
 * for: the session its `oldestEvictable` picks. Keys: the shard's activity set. Values: touched
 * ('' for none), protectedFrom. Returns `{sessionId, activity time, activity member}`, or an
 * empty list.
 */
export const NEXT_EVICTION = defineStorageScript(
  'agentChatNextEviction',
  ['activity'],
  `
local touched = A.touched
${EVICTION}
local member, at = oldestEvictable(A.protectedFrom)
if not member then return {} end
return {sessionOfMember(member), string.format('%d', at), member}
`,
);

/**
 * Deletes a session the store caps picked ({@link NEXT_EVICTION}) if it still may go: no active
 * run, not the touched one, idle since protectedFrom. Keys: the session. Values: sessionId,
 * touched, protectedFrom. Returns `{sessionIds, runIds}`.
 */
export const EVICT_SESSION = defineStorageScript(
  'agentChatEvictSession',
  ['session'],
  `${SESSION_DELETION}
local touched = A.touched
${EVICTION}
local updatedAt = tonumber(redis.call('HGET', K.session, 'updatedAt') or '')
if updatedAt and updatedAt <= tonumber(A.protectedFrom) and isEvictable(A.sessionId) then deleteSession(A.sessionId) end
return {deletedSessions, deletedRuns}
`,
);
