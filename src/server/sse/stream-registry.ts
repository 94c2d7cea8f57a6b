import type { RunEventStream } from './stream-run-events.ts';

/** The open event streams of one handler, by identity, with the per-identity cap. */
export interface StreamRegistry {
  /**
   * Registers `stream` as the newest of `identityId`; past the cap that identity's oldest streams
   * are closed cleanly (their clients resume from their cursors) and no longer counted.
   */
  add(identityId: string, stream: RunEventStream): void;
  /** Forgets a stream that has ended. */
  delete(identityId: string, stream: RunEventStream): void;
  /** Every registered stream (for `handler.close()`). */
  all(): RunEventStream[];
  /** How many streams are registered. */
  readonly size: number;
}

/**
 * Creates a {@link StreamRegistry} holding at most `maxPerIdentity` streams per identity
 * (docs/protocol.md §16). The oldest stream gives way rather than the newest being refused: the
 * oldest is the likeliest to be a connection whose client is already gone (a closed laptop, a
 * network switch) that the server has not noticed yet, while a live client that loses its stream
 * only resumes from its cursor.
 */
export function createStreamRegistry(options: { maxPerIdentity: number }): StreamRegistry {
  const byIdentity = new Map<string, RunEventStream[]>();
  const streams = new Set<RunEventStream>();
  return {
    add(identityId, stream) {
      const open = byIdentity.get(identityId) ?? [];
      open.push(stream);
      byIdentity.set(identityId, open);
      streams.add(stream);
      while (open.length > options.maxPerIdentity) {
        const oldest = open.shift() as RunEventStream;
        streams.delete(oldest);
        oldest.close();
      }
    },
    delete(identityId, stream) {
      streams.delete(stream);
      const open = byIdentity.get(identityId);
      if (open === undefined) return;
      const remaining = open.filter((candidate) => candidate !== stream);
      if (remaining.length === 0) byIdentity.delete(identityId);
      else byIdentity.set(identityId, remaining);
    },
    all: () => [...streams],
    get size() {
      return streams.size;
    },
  };
}
