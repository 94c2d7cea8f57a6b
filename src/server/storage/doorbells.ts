/** In-process doorbells per run: who to wake after an append. */
export interface Doorbells {
  /** Registers `onWake` for `runId`; returns the unsubscribe function. */
  subscribe(runId: string, onWake: (lastSeq: number) => void): () => void;
  /** Calls every `onWake` registered for `runId` with the seq its log reached. */
  ring(runId: string, lastSeq: number): void;
}

/** Creates an empty set of doorbells (the in-process wake-up of live tails; readers re-read the log). */
export function createDoorbells(): Doorbells {
  const byRun = new Map<string, Set<(lastSeq: number) => void>>();
  return {
    subscribe(runId, onWake) {
      let set = byRun.get(runId);
      if (set === undefined) {
        set = new Set();
        byRun.set(runId, set);
      }
      set.add(onWake);
      return () => {
        const current = byRun.get(runId);
        current?.delete(onWake);
        if (current?.size === 0) byRun.delete(runId);
      };
    },
    ring(runId, lastSeq) {
      for (const onWake of [...(byRun.get(runId) ?? [])]) onWake(lastSeq);
    },
  };
}
