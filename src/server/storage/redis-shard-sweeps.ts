import type { ShardKeys } from './redis-keys.ts';
import type { RunScript, SendTo } from './redis-script.ts';
import { COUNTS } from './redis-record-scripts.ts';
import { EVICT_SESSION, NEXT_EVICTION } from './redis-retention-script.ts';
import { toStrings } from './redis-replies.ts';
import { roomUnderCaps } from './storage-port.ts';
import type { SessionRoom, SessionRoomRequest } from './storage-port.ts';

/** How {@link takeOldestOverShards} finds and takes the oldest entries of a per-shard index. */
export interface OldestOverShards {
  shards: readonly ShardKeys[];
  /** How many to take at most, over all shards. */
  limit: number;
  send: SendTo;
  /** The shard's sorted set, scored by when its entries are due. */
  index: (shard: ShardKeys) => string;
  /** The last score due, as `ZRANGEBYSCORE` takes it (`(` in front for exclusive). */
  upTo: string;
  /** Takes up to `count` of the shard's oldest due entries (a script): how many it took. */
  take: (shard: ShardKeys, count: number) => Promise<number>;
}

/**
 * Takes the `limit` oldest due entries of a sweep whose index is kept per shard (ended runs,
 * expired executor leases): one shard takes them itself; over several, each shard's first `limit`
 * due scores are read (one call per shard, sent together), the oldest `limit` of them chosen, and
 * each shard takes its share (together again). So a sweep takes the oldest first and never more
 * than `limit`, and it answers `limit` while more may be due (a caller loops until it answers less).
 * Returns how many were taken.
 */
export async function takeOldestOverShards(sweep: OldestOverShards): Promise<number> {
  const { shards, limit } = sweep;
  const [only] = shards;
  if (shards.length === 1 && only !== undefined) return sweep.take(only, limit);
  const due = await Promise.all(
    shards.map(async (shard, number) => {
      const key = sweep.index(shard);
      const flat = toStrings(
        await sweep.send(key, ['ZRANGEBYSCORE', key, '-inf', sweep.upTo, 'WITHSCORES', 'LIMIT', '0', String(limit)]),
      );
      const scores: Array<{ score: number; number: number }> = [];
      for (let index = 1; index < flat.length; index += 2) scores.push({ score: Number(flat[index]), number });
      return scores;
    }),
  );
  const shares = new Map<number, number>();
  for (const { number } of due
    .flat()
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)) {
    shares.set(number, (shares.get(number) ?? 0) + 1);
  }
  const taken = await Promise.all([...shares].map(([number, count]) => sweep.take(shards[number] as ShardKeys, count)));
  return taken.reduce((sum, count) => sum + count, 0);
}

/** Sessions and runs kept over all shards (one `COUNTS` call per shard, sent together). */
export async function countOverShards(
  shards: readonly ShardKeys[],
  run: RunScript,
): Promise<{ sessions: number; runs: number }> {
  const replies = await Promise.all(
    shards.map(async (shard) =>
      toStrings(await run(COUNTS, shard, { sessions: shard.of('sessions'), runs: shard.of('runs') }, {})),
    ),
  );
  let sessions = 0;
  let runs = 0;
  for (const [shardSessions, shardRuns] of replies) {
    sessions += Number(shardSessions);
    runs += Number(shardRuns);
  }
  return { sessions, runs };
}

/** One shard's candidate for the store caps ({@link NEXT_EVICTION}). */
interface Candidate {
  shard: ShardKeys;
  sessionId: string;
  at: number;
  member: string;
}

/** The shard's session the store caps may delete next, or null. */
async function candidateOf(
  run: RunScript,
  shard: ShardKeys,
  args: { touched: string; protectedFrom: number },
): Promise<Candidate | null> {
  const [sessionId, at, member] = toStrings(await run(NEXT_EVICTION, shard, { activity: shard.of('activity') }, args));
  if (sessionId === undefined) return null;
  return { shard, sessionId, at: Number(at), member: member ?? '' };
}

/** What {@link enforceStoreCapsOverShards} and {@link checkRoomOverShards} need: the shards and the caps. */
export interface StoreCapsOverShards extends SessionRoomRequest {
  shards: readonly ShardKeys[];
  run: RunScript;
}

/**
 * Applies the store caps (`maxSessions`, `maxRuns`) over the shards of a cluster, in the order
 * one store would (docs/server.md, "Retention"): while the total is over a cap, the least recently
 * active session idle since `now - protectActiveSessionsMs` (and with no active run) goes, wherever
 * it lives. Each shard names its own candidate (`NEXT_EVICTION`); the oldest is deleted
 * (`EVICT_SESSION`, which checks again that it may go) and only its shard names a new one. Returns
 * what went.
 */
export async function enforceStoreCapsOverShards(
  request: StoreCapsOverShards & { touched: { sessionId: string; subjectId: string } | undefined },
): Promise<{ sessionIds: string[]; runIds: string[] }> {
  const { shards, run } = request;
  const args = {
    touched: request.touched?.sessionId ?? '',
    protectedFrom: request.now - request.protectActiveSessionsMs,
  };
  const sessionIds: string[] = [];
  const runIds: string[] = [];
  const totals = await countOverShards(shards, run);
  const isOverCaps = (): boolean => totals.sessions > request.maxSessions || totals.runs > request.maxRuns;
  if (!isOverCaps()) return { sessionIds, runIds };
  const candidates = new Map<ShardKeys, Candidate>();
  for (const candidate of await Promise.all(shards.map((shard) => candidateOf(run, shard, args)))) {
    if (candidate !== null) candidates.set(candidate.shard, candidate);
  }
  while (isOverCaps()) {
    const oldest = pickOldest([...candidates.values()]);
    if (oldest === undefined) break;
    const [deletedSessions, deletedRuns] = (await run(
      EVICT_SESSION,
      oldest.shard,
      { session: oldest.shard.session(oldest.sessionId) },
      { sessionId: oldest.sessionId, ...args },
    )) as [unknown, unknown];
    const gone = { sessions: toStrings(deletedSessions), runs: toStrings(deletedRuns) };
    sessionIds.push(...gone.sessions);
    runIds.push(...gone.runs);
    totals.sessions -= gone.sessions.length;
    totals.runs -= gone.runs.length;
    const next = await candidateOf(run, oldest.shard, args);
    if (next === null) candidates.delete(oldest.shard);
    else candidates.set(oldest.shard, next);
    // Taken by another process meanwhile: its shard has named another.
    if (gone.sessions.length === 0 && next?.sessionId === oldest.sessionId) break;
  }
  return { sessionIds, runIds };
}

/**
 * `AgentStorage.checkSessionRoom` over the shards: the totals (`COUNTS` per shard), and only when
 * a cap is reached, whether any shard has a session the store caps may delete (`NEXT_EVICTION`).
 */
export async function checkRoomOverShards(request: StoreCapsOverShards): Promise<SessionRoom> {
  const { shards, run } = request;
  const room = roomUnderCaps(request, await countOverShards(shards, run));
  if (room.kind === 'room') return room;
  const args = { touched: '', protectedFrom: request.now - request.protectActiveSessionsMs };
  const candidates = await Promise.all(shards.map((shard) => candidateOf(run, shard, args)));
  return candidates.some((candidate) => candidate !== null) ? { kind: 'room' } : room;
}

/** The least recently active candidate (equal times: the lower activity member). */
function pickOldest(candidates: readonly Candidate[]): Candidate | undefined {
  let oldest: Candidate | undefined;
  for (const candidate of candidates) {
    if (
      oldest === undefined ||
      candidate.at < oldest.at ||
      (candidate.at === oldest.at && candidate.member < oldest.member)
    ) {
      oldest = candidate;
    }
  }
  return oldest;
}
