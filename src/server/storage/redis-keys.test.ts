import { describe, expect, it } from 'vitest';
import { CLUSTER_SHARDS, createRedisLayout, shardOfSubject } from './redis-keys.ts';

describe('the Redis key layout', () => {
  it('keeps the key names a standalone Redis always had: one shard, the plain prefix', () => {
    const layout = createRedisLayout('agent-chat:', false);
    expect(layout.shards).toHaveLength(1);
    const shard = layout.ofSubject('idn_anyone');
    expect(shard).toBe(layout.shards[0]);
    expect(shard.session('ses_1')).toBe('agent-chat:session:ses_1');
    expect(shard.run('run_1')).toBe('agent-chat:run:run_1');
    expect(shard.stream('run_1')).toBe('agent-chat:events:run_1');
    expect(shard.of('leases')).toBe('agent-chat:leases');
    expect(layout.global).toBe('agent-chat:');
    expect(layout.rate(30, 'runs:idn_a')).toBe('agent-chat:rate:30:runs:idn_a');
  });

  it('puts a subject in the shard FNV-1a of its id names, forever (stored keys depend on it)', () => {
    // FNV-1a 32 test vectors: '' 0x811c9dc5, 'a' 0xe40c292c, 'foobar' 0xbf9cf968.
    expect(shardOfSubject('', 2 ** 32)).toBe(0x811c9dc5);
    expect(shardOfSubject('a', 2 ** 32)).toBe(0xe40c292c);
    expect(shardOfSubject('foobar', 2 ** 32)).toBe(0xbf9cf968);
    expect(CLUSTER_SHARDS).toBe(64);
    expect(['', 'a', 'foobar', 'idn_ünïcode'].map((subject) => shardOfSubject(subject))).toEqual([5, 44, 40, 17]);
  });

  it("tags each cluster shard's keys, gives each id's shard record and each rate bucket a slot of its own", () => {
    const layout = createRedisLayout('agent-chat:', true);
    expect(layout.shards).toHaveLength(CLUSTER_SHARDS);
    const shard = layout.ofSubject('a');
    expect(shard.session('ses_1')).toBe('{agent-chat:44}session:ses_1');
    expect(shard.stream('run_1')).toBe('{agent-chat:44}events:run_1');
    expect(layout.shards[3]?.of('activity')).toBe('{agent-chat:03}activity');
    expect(layout.global).toBe('{agent-chat:}');
    expect(layout.where('run_1')).toBe('agent-chat:where:{run_1}');
    expect(layout.rate(30, 'runs:idn_a')).toBe('agent-chat:rate:{30:runs:idn_a}');
  });
});
