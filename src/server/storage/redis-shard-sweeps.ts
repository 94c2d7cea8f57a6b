import type { ShardKeys } from './redis-keys.ts';
import type { RunScript, SendTo } from './redis-script.ts';
import { COUNTS } from './redis-record-scripts.ts';
import { EVICT_SESSION, NEXT_EVICTION } from './redis-retention-script.ts';
import { toStrings } from './redis-replies.ts';

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

/** One shard's candidate for a store cap ({@link NEXT_EVICTION}). */
interface Candidate {
  shard: ShardKeys;
  sessionId: string;
  holding: number;
  at: number;
  member: string;
  isTouched: boolean;
}

/**
 * Applies the store caps (`maxSessions`, `maxRuns`) over the shards of a cluster, in the order
 * one store would (docs/server.md, "Retention"): while the total is over a cap, the session that
 * goes is of the subject holding the most, the touched subject first among equals, else the least
 * recently active. A subject lives in one shard, so each shard names its own candidate
 * (`NEXT_EVICTION`); the best one is deleted (`EVICT_SESSION`, which checks again that it may go)
 * and only its shard names a new one. Returns what went.
 */
export async function enforceStoreCapsOverShards(request: {
  shards: readonly ShardKeys[];
  run: RunScript;
  maxSessions: number;
  maxRuns: number;
  touched: { sessionId: string; subjectId: string } | undefined;
}): Promise<{ sessionIds: string[]; runIds: string[] }> {
  const { shards, run } = request;
  const touched = request.touched?.sessionId ?? '';
  const touchedSubject = request.touched?.subjectId ?? '';
  const sessionIds: string[] = [];
  const runIds: string[] = [];
  const totals = await countOverShards(shards, run);
  const candidateOf = async (shard: ShardKeys, kind: 'sessions' | 'runs'): Promise<Candidate | null> => {
    const [sessionId, holding, at, member, isTouched] = toStrings(
      await run(NEXT_EVICTION, shard, { activity: shard.of('activity') }, { kind, touched, touchedSubject }),
    );
    if (sessionId === undefined) return null;
    return {
      shard,
      sessionId,
      holding: Number(holding),
      at: Number(at),
      member: member ?? '',
      isTouched: isTouched === '1',
    };
  };
  for (const kind of ['sessions', 'runs'] as const) {
    const max = kind === 'sessions' ? request.maxSessions : request.maxRuns;
    if (totals[kind] <= max) continue;
    const candidates = new Map<ShardKeys, Candidate>();
    for (const candidate of await Promise.all(shards.map((shard) => candidateOf(shard, kind)))) {
      if (candidate !== null) candidates.set(candidate.shard, candidate);
    }
    while (totals[kind] > max) {
      const best = pickCandidate([...candidates.values()]);
      if (best === undefined) break;
      const [deletedSessions, deletedRuns] = (await run(
        EVICT_SESSION,
        best.shard,
        { session: best.shard.session(best.sessionId) },
        { sessionId: best.sessionId, touched },
      )) as [unknown, unknown];
      const gone = { sessions: toStrings(deletedSessions), runs: toStrings(deletedRuns) };
      sessionIds.push(...gone.sessions);
      runIds.push(...gone.runs);
      totals.sessions -= gone.sessions.length;
      totals.runs -= gone.runs.length;
      const next = await candidateOf(best.shard, kind);
      if (next === null) candidates.delete(best.shard);
      else candidates.set(best.shard, next);
      // Taken by another process meanwhile: its shard has named another.
      if (gone.sessions.length === 0 && next?.sessionId === best.sessionId) break;
    }
  }
  return { sessionIds, runIds };
}

/** The candidate that goes first: the largest holding, then the touched subject's, then the least recently active. */
function pickCandidate(candidates: readonly Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates) {
    if (best === undefined || goesBefore(candidate, best)) best = candidate;
  }
  return best;
}

function goesBefore(a: Candidate, b: Candidate): boolean {
  if (a.holding !== b.holding) return a.holding > b.holding;
  if (a.isTouched !== b.isTouched) return a.isTouched;
  if (a.at !== b.at) return a.at < b.at;
  return a.member < b.member;
}
