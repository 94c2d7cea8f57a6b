import { defineStorageScript } from './redis-script.ts';

/**
 * Lua shared by the scripts that delete sessions: `deleteRun(runId)` and `deleteSession(id)` (with
 * all its runs, logs, messages and index entries), recording what went in `deletedSessions` and
 * `deletedRuns`.
 */
const SESSION_DELETION = `
local deletedSessions, deletedRuns = {}, {}

-- Moves a subject's holding (sessions or runs) by delta; a holding of zero leaves the set.
local function addHolding(kind, subjectId, delta)
  if tonumber(redis.call('ZINCRBY', P .. 'holdings:' .. kind, delta, subjectId)) <= 0 then
    redis.call('ZREM', P .. 'holdings:' .. kind, subjectId)
  end
end

local function deleteRun(runId)
  local run = redis.call('HMGET', runKey(runId), 'sessionId', 'messageIds', 'subjectId')
  if not run[1] then return end
  redis.call('SREM', P .. 'subject-active:' .. run[3], runId)
  addHolding('runs', run[3], -1)
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
  if s[2] then addHolding('sessions', s[2], -1) end
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
 * Lua shared by the retention scripts: which sessions may go, and `nextByHolding(kind)`, the
 * session the store caps delete next in this shard (after `SESSION_DELETION`; needs `touched` and
 * `touchedSubject`).
 */
const EVICTION = `
local function isEvictable(sessionId)
  return sessionId ~= touched and redis.call('HEXISTS', sessionKey(sessionId), 'activeRunId') == 0
end

-- The subject's least recently active evictable session, as its activity member and time.
local function oldestEvictable(subjectId)
  local set, offset = P .. 'subject-activity:' .. subjectId, 0
  while true do
    local page = redis.call('ZRANGE', set, offset, offset + 99, 'WITHSCORES')
    if #page == 0 then return nil end
    for i = 1, #page, 2 do
      if isEvictable(sessionOfMember(page[i])) then return page[i], tonumber(page[i + 1]) end
    end
    offset = offset + 100
  end
end

-- The session the store caps delete next: of the subjects holding the most that have an evictable
-- session, the touched one, else the least recently active evictable session among them. A small
-- top tier is searched subject by subject; a large one (many identities holding alike) through the
-- activity set, where a session of one of them comes early, so neither reads every subject.
-- Returns its activity member, the holding of its subject, its activity time and whether it is
-- the touched subject's; nil when no subject has an evictable session.
local function nextByHolding(kind)
  local holders, top, offset = P .. 'holdings:' .. kind, nil, 0
  while not top do
    local page = redis.call('ZREVRANGE', holders, offset, offset + 99, 'WITHSCORES')
    if #page == 0 then return nil end
    for i = 1, #page, 2 do
      if oldestEvictable(page[i]) then
        top = tonumber(page[i + 1])
        break
      end
    end
    offset = offset + 100
  end
  if touchedSubject ~= '' and tonumber(redis.call('ZSCORE', holders, touchedSubject) or '-1') == top then
    local member, at = oldestEvictable(touchedSubject)
    if member then return member, top, at, true end
  end
  if redis.call('ZCOUNT', holders, top, top) <= 50 then
    local best, bestAt = nil, nil
    for _, subjectId in ipairs(redis.call('ZRANGEBYSCORE', holders, top, top)) do
      local member, at = oldestEvictable(subjectId)
      if member and (not best or at < bestAt or (at == bestAt and member < best)) then best, bestAt = member, at end
    end
    if best then return best, top, bestAt, false end
    return nil
  end
  offset = 0
  while true do
    local page = redis.call('ZRANGE', P .. 'activity', offset, offset + 99, 'WITHSCORES')
    if #page == 0 then return nil end
    for i = 1, #page, 2 do
      local sessionId = sessionOfMember(page[i])
      if isEvictable(sessionId) then
        local subjectId = redis.call('HGET', sessionKey(sessionId), 'subjectId')
        if subjectId and tonumber(redis.call('ZSCORE', holders, subjectId) or '-1') == top then
          return page[i], top, tonumber(page[i + 1]), false
        end
      end
    end
    offset = offset + 100
  end
end
`;

/**
 * Deletes what the caps and the idle TTL do not keep (`AgentStorage.enforceRetention`), in one
 * script, with the same order as the other stores: least recently active first (equal times in
 * creation order), never a session with an active run nor the touched one; past the store caps,
 * only sessions of the subjects holding the most (`holdings:sessions`, `holdings:runs`, scored by
 * count; rebuilt from the sessions and runs once, for data written before they existed), the
 * touched subject first among equals. The activity sets are walked in pages, so a create at the
 * cap reads little more than what it evicts. On Redis Cluster it runs in one shard with
 * `storeCaps` '0', and the store caps are applied over the shards with {@link NEXT_EVICTION} and
 * {@link EVICT_SESSION} (`redis-shard-sweeps.ts`). Keys: the shard's sets of all sessions, runs
 * and activity, and its counters. Values: cutoff (`now - sessionIdleTtlMs`),
 * maxSessionsPerSubject, maxRunsPerSession, maxSessions, maxRuns, storeCaps ('1': apply the store
 * caps here), touched (the touched sessionId, '' for a sweep), touchedSubject. Returns
 * `{sessionIds, runIds}`.
 */
export const ENFORCE_RETENTION = defineStorageScript(
  'agentChatEnforceRetention',
  ['sessions', 'runs', 'activity', 'counters'],
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
if redis.call('HSETNX', K.counters, 'holdings', 1) == 1 then
  redis.call('DEL', P .. 'holdings:sessions', P .. 'holdings:runs')
  for _, sessionId in ipairs(redis.call('ZRANGE', K.sessions, 0, -1)) do
    local subjectId = redis.call('HGET', sessionKey(sessionId), 'subjectId')
    if subjectId then addHolding('sessions', subjectId, 1) end
  end
  for _, runId in ipairs(redis.call('ZRANGE', K.runs, 0, -1)) do
    local subjectId = redis.call('HGET', runKey(runId), 'subjectId')
    if subjectId then addHolding('runs', subjectId, 1) end
  end
end

if A.storeCaps == '1' then
  for _, cap in ipairs({{'sessions', maxSessions}, {'runs', maxRuns}}) do
    while redis.call('ZCARD', P .. cap[1]) > cap[2] do
      local member = nextByHolding(cap[1])
      if not member then break end
      deleteSession(sessionOfMember(member))
    end
  end
end
if touched == '' then
  evictOldest(K.activity, cutoff, function() return true end)
end
return {deletedSessions, deletedRuns}
`,
);

/**
 * The shard's candidate for the store cap of `kind` (`sessions` or `runs`) on Redis Cluster: the
 * session its `nextByHolding` picks. Keys: the shard's activity set. Values: kind, touched,
 * touchedSubject. Returns `{sessionId, holding, activity time, activity member, 1 when the touched
 * subject's}`, or an empty list.
 */
export const NEXT_EVICTION = defineStorageScript(
  'agentChatNextEviction',
  ['activity'],
  `
local touched, touchedSubject = A.touched, A.touchedSubject
${EVICTION}
local member, holding, at, isTouched = nextByHolding(A.kind)
if not member then return {} end
return {sessionOfMember(member), string.format('%d', holding), string.format('%d', at), member, isTouched and 1 or 0}
`,
);

/**
 * Deletes a session the store caps picked ({@link NEXT_EVICTION}), if it still may go (no active
 * run, not the touched one). Keys: the session. Values: sessionId, touched. Returns
 * `{sessionIds, runIds}`.
 */
export const EVICT_SESSION = defineStorageScript(
  'agentChatEvictSession',
  ['session'],
  `${SESSION_DELETION}
local touched, touchedSubject = A.touched, ''
${EVICTION}
if redis.call('EXISTS', K.session) == 1 and isEvictable(A.sessionId) then deleteSession(A.sessionId) end
return {deletedSessions, deletedRuns}
`,
);
