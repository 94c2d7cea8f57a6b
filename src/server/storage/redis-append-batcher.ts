import { toStrings } from './redis-replies.ts';

/**
 * One run's append for the append script: its shard's key base (the calls of one slot go
 * together), its three keys (run, stream, idempotency record) and its values as JSON.
 */
export interface QueuedAppend {
  base: string;
  keys: readonly [string, string, string];
  json: string;
}

/** Sends one call of the append script in the shard `base` over `keys` (three per batch) and the batches' JSON. */
export type SendAppends = (base: string, keys: string[], batches: string[]) => Promise<unknown>;

/** Batches one script call carries at most, so one call never holds Redis long. */
const MAX_BATCHES_PER_CALL = 256;

interface Waiting {
  append: QueuedAppend;
  resolve: (reply: string[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces the appends of many runs (docs/server.md, "Redis"): what is queued in one turn of the
 * event loop goes in one call of the append script per shard (`setImmediate`, so the appends of
 * every timer and socket callback of the turn ride together; a script never crosses slots), in
 * queue order, up to {@link MAX_BATCHES_PER_CALL} per call. Each append resolves with its own reply
 * (`['ok']`, `['conflict', lastSeq]`, …); a failed call rejects every append it carried.
 */
export function createAppendBatcher(send: SendAppends): (append: QueuedAppend) => Promise<string[]> {
  let queue: Waiting[] = [];
  const sendChunk = (base: string, chunk: Waiting[]): void => {
    send(
      base,
      chunk.flatMap((queued) => queued.append.keys),
      chunk.map((queued) => queued.append.json),
    ).then(
      (reply) => {
        const replies = Array.isArray(reply) ? (reply as unknown[]) : [];
        chunk.forEach((queued, index) => queued.resolve(toStrings(replies[index])));
      },
      (error: unknown) => {
        for (const queued of chunk) queued.reject(error);
      },
    );
  };
  const flush = (): void => {
    const byShard = new Map<string, Waiting[]>();
    for (const queued of queue) {
      const shard = byShard.get(queued.append.base);
      if (shard === undefined) byShard.set(queued.append.base, [queued]);
      else shard.push(queued);
    }
    queue = [];
    for (const [base, taken] of byShard) {
      for (let start = 0; start < taken.length; start += MAX_BATCHES_PER_CALL)
        sendChunk(base, taken.slice(start, start + MAX_BATCHES_PER_CALL));
    }
  };
  return (append) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ append, resolve, reject });
    });
}
