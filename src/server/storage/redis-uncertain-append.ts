/** How {@link settleUncertainAppend} looks at the run and sends the append again. */
export interface UncertainAppend {
  expectedLastSeq: number;
  /** Events in the batch (at least one). */
  count: number;
  /** The `eventId` of the batch's last event. */
  lastEventId: string;
  /** The run's `lastSeq`, or null when the run is gone. */
  readLastSeq(): Promise<number | null>;
  /** The `eventId` of the run's event at `seq`, or null. */
  readEventIdAt(seq: number): Promise<string | null>;
  /** Sends the append again: its reply. */
  resend(): Promise<string[]>;
  /** True for a failure that says nothing about whether Redis ran the command (a dropped connection). */
  isConnectionError(error: unknown): boolean;
}

/** Checks after a dropped connection at most this many times, this far apart. */
const MAX_ATTEMPTS = 50;
const RETRY_MS = 200;

/**
 * The reply of an append whose call failed with the connection (Redis restarting, failing over),
 * so it may or may not have run: once Redis answers again, the run's log says which. At the
 * expected last seq it did not run, and is sent again; ending in the batch's own last event it
 * ran (`['ok']`); anything else is `['conflict', lastSeq]` or `['missing']`, as the script answers.
 * Connection failures meanwhile are retried; another error, or the last attempt's, rejects.
 */
export async function settleUncertainAppend(append: UncertainAppend): Promise<string[]> {
  const lastOfBatch = append.expectedLastSeq + append.count;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const lastSeq = await append.readLastSeq();
      if (lastSeq === null) return ['missing'];
      if (lastSeq === append.expectedLastSeq) return await append.resend();
      if (lastSeq >= lastOfBatch && (await append.readEventIdAt(lastOfBatch)) === append.lastEventId) return ['ok'];
      return ['conflict', String(lastSeq)];
    } catch (error) {
      if (!append.isConnectionError(error) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
