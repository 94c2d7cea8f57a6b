/** The slice of `sessionStorage` the client uses; any object of this shape works. */
export interface ClientStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A create the server has not definitively answered: re-sent byte-identical after a reload. */
export interface PendingCreateRecord {
  key: string;
  /** The exact serialized `POST /runs` body. */
  body: string;
  sessionId: string | null;
  /** Epoch ms when the user pressed send (the key's age). */
  createdAt: number;
}

/** The run the tab follows, so a reload reconnects to it. */
export interface ActiveRunRecord {
  sessionId: string;
  runId: string;
}

/** Reads and writes the client's two records; a missing storage makes every call a no-op. */
export interface ClientPersistence {
  readPendingCreate(): PendingCreateRecord | null;
  writePendingCreate(record: PendingCreateRecord): void;
  clearPendingCreate(): void;
  readActiveRun(): ActiveRunRecord | null;
  writeActiveRun(record: ActiveRunRecord): void;
  clearActiveRun(): void;
}

/** Default prefix of the storage keys. */
export const DEFAULT_STORAGE_PREFIX = 'agent-chat:';

/**
 * Wraps an optional storage adapter. Nothing is stored without one (persistence is opt-in).
 * Storage failures (quota, a private mode that throws) and unreadable records are ignored:
 * persistence only ever adds resilience, it never breaks a send.
 */
export function createClientPersistence(storage: ClientStorage | undefined, prefix = DEFAULT_STORAGE_PREFIX): ClientPersistence {
  const pendingKey = `${prefix}pending-create`;
  const activeKey = `${prefix}active-run`;
  // Quota, a disabled storage or an unreadable record: the client still works, it just will not survive a reload.
  const safely = (action: () => unknown): unknown => {
    try {
      return action();
    } catch {
      return null;
    }
  };
  const read = (key: string): unknown => safely(() => JSON.parse(storage?.getItem(key) ?? 'null'));
  const write = (key: string, value: unknown): void => void safely(() => storage?.setItem(key, JSON.stringify(value)));
  const remove = (key: string): void => void safely(() => storage?.removeItem(key));
  return {
    readPendingCreate() {
      const value = read(pendingKey) as Partial<PendingCreateRecord> | null;
      if (value === null || typeof value.key !== 'string' || typeof value.body !== 'string' || typeof value.createdAt !== 'number') return null;
      return { key: value.key, body: value.body, sessionId: typeof value.sessionId === 'string' ? value.sessionId : null, createdAt: value.createdAt };
    },
    writePendingCreate: (record) => write(pendingKey, record),
    clearPendingCreate: () => remove(pendingKey),
    readActiveRun() {
      const value = read(activeKey) as Partial<ActiveRunRecord> | null;
      if (value === null || typeof value.sessionId !== 'string' || typeof value.runId !== 'string') return null;
      return { sessionId: value.sessionId, runId: value.runId };
    },
    writeActiveRun: (record) => write(activeKey, record),
    clearActiveRun: () => remove(activeKey),
  };
}
