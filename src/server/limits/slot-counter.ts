/** Why {@link SlotCounter.take} refused: the key's own share is used up, or every slot is. */
export type SlotRefusal = 'key_full' | 'total_full';

/** Counts what is held at once, per key and in all (requests, bodies, streams, runs). */
export interface SlotCounter {
  /**
   * Takes one slot for `key` when both its share and the total have room, else says which is
   * full. The returned release gives the slot back; calling it again does nothing.
   */
  take(key: string): (() => void) | SlotRefusal;
  /**
   * Takes one slot for `key` even past both caps (a run coming back from waiting, which was
   * admitted once already); the returned release gives it back.
   */
  takeAnyway(key: string): () => void;
  /** Slots held in all. */
  total(): number;
  /** Slots `key` holds. */
  held(key: string): number;
}

/**
 * Creates a {@link SlotCounter} allowing `maxPerKey` slots per key and `maxTotal` in all
 * (`Infinity` turns either off), plus `reserveForNewKeys` slots past `maxTotal` that only a key
 * holding none may take, so a newcomer still gets in while the others fill the rest. Keys holding
 * nothing are forgotten, so memory follows what is held.
 */
export function createSlotCounter(options: {
  maxPerKey: number;
  maxTotal: number;
  reserveForNewKeys?: number;
}): SlotCounter {
  const reserve = options.reserveForNewKeys ?? 0;
  const byKey = new Map<string, number>();
  let total = 0;
  const hold = (key: string): (() => void) => {
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
    total += 1;
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      total -= 1;
      const left = (byKey.get(key) ?? 1) - 1;
      if (left === 0) byKey.delete(key);
      else byKey.set(key, left);
    };
  };
  return {
    take(key) {
      const held = byKey.get(key) ?? 0;
      if (total >= options.maxTotal && (held > 0 || total >= options.maxTotal + reserve)) return 'total_full';
      if (held >= options.maxPerKey) return 'key_full';
      return hold(key);
    },
    takeAnyway: hold,
    total: () => total,
    held: (key) => byKey.get(key) ?? 0,
  };
}
