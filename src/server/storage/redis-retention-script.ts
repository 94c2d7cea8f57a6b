import { defineRedisScript } from './redis-script.ts';

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
  redis.call('DEL', runKey(runId), streamKey(runId))
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
  redis.call('DEL', sessionKey(sessionId), P .. 'session-runs:' .. sessionId, P .. 'messages:' .. sessionId,
    P .. 'message-json:' .. sessionId)
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
 * script. ARGV: prefix, sessionId, subjectId. Returns {'deleted', runIds} | {'not_found'} |
 * {'run_active', runId}.
 */
export const DELETE_SESSION = defineRedisScript(`${SESSION_DELETION}
local s = redis.call('HMGET', sessionKey(ARGV[2]), 'subjectId', 'activeRunId')
if s[1] ~= ARGV[3] then return {'not_found'} end
if s[2] then return {'run_active', s[2]} end
deleteSession(ARGV[2])
return {'deleted', deletedRuns}
`);

/**
 * Deletes what the caps and the idle TTL do not keep (`AgentStorage.enforceRetention`), in one
 * script, with the same order as the other stores: least recently active first (equal times in
 * creation order), never a session with an active run nor the touched one. The activity sets are
 * walked in pages, so a create at the cap reads only what it evicts. ARGV: prefix, idle cutoff
 * (`now - sessionIdleTtlMs`), maxSessionsPerSubject, maxRunsPerSession, maxSessions, maxRuns,
 * touched sessionId ('' for a sweep), touched subjectId. Returns `{sessionIds, runIds}`.
 */
export const ENFORCE_RETENTION = defineRedisScript(`${SESSION_DELETION}
local cutoff, maxPerSubject, maxRunsPerSession = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local maxSessions, maxRuns, touched, touchedSubject = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7], ARGV[8]

local function isEvictable(sessionId)
  return sessionId ~= touched and redis.call('HEXISTS', sessionKey(sessionId), 'activeRunId') == 0
end

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
evictOldest(P .. 'activity', '+inf', function()
  return redis.call('ZCARD', P .. 'sessions') > maxSessions or redis.call('ZCARD', P .. 'runs') > maxRuns
end)
if touched == '' then
  evictOldest(P .. 'activity', cutoff, function() return true end)
end
return {deletedSessions, deletedRuns}
`);
