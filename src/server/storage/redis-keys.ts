/**
 * Hash tags of a deployment on Redis Cluster: every subject's records live under one of them,
 * `{<keyPrefix><shard>}` with the shard as two digits (`{agent-chat:07}`). Fixed for every
 * deployment and never to change: the keys of stored data depend on it. 64 tags spread over
 * clusters of up to a dozen or so masters, while a sweep, a store-cap count and the live tails of
 * one process stay bounded by 64 calls or connections.
 */
export const CLUSTER_SHARDS = 64;

/**
 * The shard of a subject on Redis Cluster: FNV-1a (32 bit) of its id's UTF-8 bytes, modulo
 * `shards`. Part of the stored layout: it must never change.
 */
export function shardOfSubject(subjectId: string, shards: number = CLUSTER_SHARDS): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(subjectId)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

/** The key names of one shard (docs/server.md, "Redis"): what its scripts call `P`, then the record. */
export interface ShardKeys {
  /** What every key of the shard starts with: the prefix, or on Redis Cluster the shard's hash tag. */
  base: string;
  of(name: string): string;
  session(sessionId: string): string;
  run(runId: string): string;
  stream(runId: string): string;
  idem(recordId: string): string;
  subjectActive(subjectId: string): string;
  messages(sessionId: string): { messages: string; messageJson: string };
  leases(): { leases: string; leaseOwners: string };
}

/** The layout of a deployment: its shards, and the keys that belong to none of them. */
export interface RedisLayout {
  /** Every shard, by number: one (the plain prefix) on a standalone Redis, {@link CLUSTER_SHARDS} on a cluster. */
  shards: readonly ShardKeys[];
  /** The shard of a subject's records. */
  ofSubject(subjectId: string): ShardKeys;
  /** Where the deployment's settings and readiness probe go (`{<prefix>}` on a cluster, the prefix otherwise). */
  global: string;
  /** The key of a record's shard number on a cluster (`<prefix>where:{<id>}`, a slot per id). */
  where(id: string): string;
  /** A rate bucket: a hash tag of its own on Redis Cluster, so the buckets spread over the nodes. */
  rate(perMinute: number, bucket: string): string;
}

/**
 * The keys of a deployment under `prefix`. A standalone Redis keeps one shard whose base is the
 * plain prefix (the keys it always had); on Redis Cluster each subject's records share its
 * shard's hash tag, so no script crosses slots and the subjects spread over the nodes.
 */
export function createRedisLayout(prefix: string, isCluster: boolean): RedisLayout {
  const shards = isCluster
    ? Array.from({ length: CLUSTER_SHARDS }, (_, shard) => shardKeys(`{${prefix}${String(shard).padStart(2, '0')}}`))
    : [shardKeys(prefix)];
  const global = isCluster ? `{${prefix}}` : prefix;
  return {
    shards,
    ofSubject: (subjectId) => shards[shards.length === 1 ? 0 : shardOfSubject(subjectId)] as ShardKeys,
    global,
    where: (id) => `${prefix}where:{${id}}`,
    rate: (perMinute, bucket) =>
      isCluster ? `${prefix}rate:{${perMinute}:${bucket}}` : `${prefix}rate:${perMinute}:${bucket}`,
  };
}

/** The keys of the shard whose keys start with `base`. */
function shardKeys(base: string): ShardKeys {
  const of = (name: string): string => `${base}${name}`;
  return {
    base,
    of,
    session: (sessionId) => of(`session:${sessionId}`),
    run: (runId) => of(`run:${runId}`),
    stream: (runId) => of(`events:${runId}`),
    idem: (recordId) => of(`idem:${recordId}`),
    subjectActive: (subjectId) => of(`subject-active:${subjectId}`),
    messages: (sessionId) => ({ messages: of(`messages:${sessionId}`), messageJson: of(`message-json:${sessionId}`) }),
    leases: () => ({ leases: of('leases'), leaseOwners: of('lease-owners') }),
  };
}
