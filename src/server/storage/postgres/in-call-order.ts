/** Runs tasks of one key one after another, in the order they were called; other keys run alongside. */
export type InCallOrder = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/**
 * Creates per-key call ordering for this process. A pool sends concurrent statements on different
 * connections, so two racing writes of one run (two decisions, two lease takers) could reach
 * Postgres in either order; queued by key, the first call is the first write, as on one Redis
 * connection, and writes of different runs still go in parallel.
 */
export function createInCallOrder(): InCallOrder {
  const queues = new Map<string, Promise<void>>();
  return (key, task) => {
    const before = queues.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return result;
  };
}
