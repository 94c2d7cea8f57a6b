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
  /** The user message's id and text (also inside `body`), shown again as a failed send if the key expired. */
  clientMessageId: string;
  text: string;
  /** The failed run the create answers again (its `retryOf`, also inside `body`). */
  replacesRunId?: string;
}

/** The run the tab follows, so a reload reconnects to it. */
export interface ActiveRunRecord {
  sessionId: string;
  runId: string;
}

/** Reads and writes the client's records; a missing storage makes every call a no-op. */
export interface ClientPersistence {
  readPendingCreate(): PendingCreateRecord | null;
  writePendingCreate(record: PendingCreateRecord): void;
  clearPendingCreate(): void;
  readActiveRun(): ActiveRunRecord | null;
  writeActiveRun(record: ActiveRunRecord): void;
  clearActiveRun(): void;
  /** The conversation the tab shows (kept after its runs end), so a reload shows it again. */
  readCurrentSession(): string | null;
  /** Stores the current conversation; null forgets it. */
  writeCurrentSession(sessionId: string | null): void;
}

/** Default prefix of the storage keys. */
export const DEFAULT_STORAGE_PREFIX = 'agent-chat:';

/**
 * Wraps an optional storage adapter. Nothing is stored without one (persistence is opt-in).
 * Storage failures (quota, a private mode that throws) and unreadable records are ignored:
 * persistence only ever adds resilience, it never breaks a send.
 */
export function createClientPersistence(
  storage: ClientStorage | undefined,
  prefix = DEFAULT_STORAGE_PREFIX,
): ClientPersistence {
  const pendingKey = `${prefix}pending-create`;
  const activeKey = `${prefix}active-run`;
  const sessionKey = `${prefix}session`;
  // Quota, a disabled storage or an unreadable record: the client still works, it just will not survive a reload.
  const safely = (action: () => unknown): unknown => {
    try {
      return action();
    } catch {
      return null;
    }
  };
  /** The stored record, or null when it is missing, unreadable, or a field has the wrong type. */
  const read = <T>(key: string, types: Record<string, string>): T | null => {
    const value = safely(() => JSON.parse(storage?.getItem(key) ?? 'null')) as Record<string, unknown> | null;
    return value !== null && Object.entries(types).every(([field, type]) => typeof value[field] === type)
      ? (value as T)
      : null;
  };
  const write = (key: string, value: unknown): void => void safely(() => storage?.setItem(key, JSON.stringify(value)));
  const remove = (key: string): void => void safely(() => storage?.removeItem(key));
  return {
    readPendingCreate() {
      const value = read<PendingCreateRecord>(pendingKey, {
        key: 'string',
        body: 'string',
        createdAt: 'number',
        clientMessageId: 'string',
        text: 'string',
      });
      return value && { ...value, sessionId: typeof value.sessionId === 'string' ? value.sessionId : null };
    },
    writePendingCreate: (record) => write(pendingKey, record),
    clearPendingCreate: () => remove(pendingKey),
    readActiveRun: () => read<ActiveRunRecord>(activeKey, { sessionId: 'string', runId: 'string' }),
    writeActiveRun: (record) => write(activeKey, record),
    clearActiveRun: () => remove(activeKey),
    readCurrentSession: () => read<{ sessionId: string }>(sessionKey, { sessionId: 'string' })?.sessionId ?? null,
    writeCurrentSession: (sessionId) => (sessionId === null ? remove(sessionKey) : write(sessionKey, { sessionId })),
  };
}
