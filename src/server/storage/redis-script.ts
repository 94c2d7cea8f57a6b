import type { ShardKeys } from './redis-keys.ts';

/**
 * One Lua script of the Redis storage, as node-redis defines scripts (`defineScript` from
 * `@redis/client`, given to the client's `scripts` option by `openRedisStorage`): the keys it
 * declares are `KEYS` (so Redis Cluster routes it by the first, and they all share one shard's
 * hash tag, so one slot), and its values travel as one JSON object, `ARGV[1]`, read by name as
 * `A.<name>`.
 */
export interface StorageScript {
  /** The client method node-redis adds for it. */
  name: string;
  source: string;
  /** The names of its `KEYS`, in order: the Lua reads `K.<name>`. */
  keyNames: readonly string[];
}

/**
 * One call of a {@link StorageScript}: its declared keys, by name, then (for a script over a list
 * of things, like many runs' appends) `moreKeys` after them in order, and its named values.
 */
export interface ScriptCall {
  keys: Record<string, string>;
  moreKeys?: readonly string[];
  args: ScriptArgs;
}

/** The named values of a script call: strings (numbers are sent as their decimal text) and lists of them. */
export type ScriptArgs = Record<string, string | number | readonly string[]>;

/**
 * What every script starts with: its named keys `K`, its values `A` and the key base of the shard
 * it runs in `P` (`A.base`: the key prefix, or a shard's hash tag on Redis Cluster), then the
 * helpers they share. A key a script only finds while it runs (a run's session, a session's runs,
 * the shard's indexes) is built from `P`, so it has the same hash tag, and the same slot, as the
 * declared ones.
 */
const PRELUDE = `
local A = cjson.decode(ARGV[1])
local P = A.base
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

/**
 * Defines a storage script: `keyNames` are its `KEYS` in order (`K.<name>` in `body`); `bare`
 * leaves the prelude out (a script that needs none of it, like the rate bucket).
 */
export function defineStorageScript(
  name: string,
  keyNames: readonly string[],
  body: string,
  options: { bare?: boolean } = {},
): StorageScript {
  const keys = keyNames.map((key, index) => `K[${JSON.stringify(key)}] = KEYS[${index + 1}]`).join('\n');
  const prelude = options.bare === true ? 'local A = cjson.decode(ARGV[1])' : PRELUDE;
  return { name, keyNames, source: `${prelude}\nlocal K = {}\n${keys}\n${body}` };
}

/**
 * The `EVALSHA` arguments after the SHA1 for `call`: the keys in the script's order (then
 * `moreKeys`), then the values as one JSON object with the key base `base` (numbers as decimal text, so
 * Lua sees exact integers).
 * Throws when a declared key is missing.
 */
export function scriptArguments(
  script: StorageScript,
  call: ScriptCall,
  base: string,
): { keys: string[]; argv: string } {
  const keys = script.keyNames.map((name) => {
    const key = call.keys[name];
    if (key === undefined) throw new TypeError(`Script ${script.name} needs its key "${name}".`);
    return key;
  });
  keys.push(...(call.moreKeys ?? []));
  const args: Record<string, string | readonly string[]> = { base };
  for (const [name, value] of Object.entries(call.args)) {
    args[name] =
      typeof value === 'number' ? String(value) : typeof value === 'string' ? wellFormed(value) : value.map(wellFormed);
  }
  return { keys, argv: JSON.stringify(args) };
}

/** `values` as JSON with lone surrogates in its strings replaced (a value the scripts decode with `cjson`). */
export function wellFormedJson(values: ScriptArgs): string {
  const args: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(values)) {
    args[name] =
      typeof value === 'number' ? String(value) : typeof value === 'string' ? wellFormed(value) : value.map(wellFormed);
  }
  return JSON.stringify(args);
}

/** `text` with lone surrogates replaced, as UTF-8 would carry them (Lua's JSON decoder refuses them escaped). */
function wellFormed(text: string): string {
  return text.replace(/\p{Surrogate}/gu, '\uFFFD');
}

/** The one command the storage sends outside scripts, routed by `key` (the client's `sendCommand`). */
export type SendCommand = (args: string[]) => Promise<unknown>;

/** Sends one command to the node holding `key`. */
export type SendTo = (key: string, args: string[]) => Promise<unknown>;

/** Runs a storage script in `shard` (its key base is the script's `P`) with its keys by name and its values. */
export type RunScript = (
  script: StorageScript,
  shard: ShardKeys,
  keys: Record<string, string>,
  args: ScriptArgs,
) => Promise<unknown>;
