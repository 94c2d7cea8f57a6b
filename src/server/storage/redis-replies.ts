import type { RunSnapshot, SnapshotMessage } from '../../core/protocol.ts';
import type { Page, StoredRun, StoredSession, StoredTurnLink } from './storage-port.ts';

/** The strings of an array reply (anything else in it becomes ''). */
export function toStrings(reply: unknown): string[] {
  return Array.isArray(reply) ? reply.map((item) => (typeof item === 'string' ? item : String(item ?? ''))) : [];
}

/** A hash reply (`HGETALL`'s flat field, value list) as a record. */
export function toFields(reply: unknown): Record<string, string> {
  const flat = toStrings(reply);
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) fields[flat[index] as string] = flat[index + 1] as string;
  return fields;
}

/** A session hash as a {@link StoredSession}; null when the hash is empty. */
export function toSession(sessionId: string, fields: Record<string, string>): StoredSession | null {
  if (fields['subjectId'] === undefined) return null;
  return {
    sessionId,
    subjectId: fields['subjectId'],
    agentVersionId: fields['agentVersionId'] ?? '',
    title: fields['title'] ?? null,
    createdAt: Number(fields['createdAt']),
    updatedAt: Number(fields['updatedAt']),
    activeRunId: fields['activeRunId'] ?? null,
    lastRunId: fields['lastRunId'] ?? null,
  };
}

/** A run hash and its settled messages' JSON as a {@link StoredRun}. */
export function toRun(runId: string, fields: Record<string, string>, messageJsons: readonly string[]): StoredRun {
  const stripped = fields['finalSnapshot'] === undefined ? null : (JSON.parse(fields['finalSnapshot']) as RunSnapshot);
  return {
    runId,
    sessionId: fields['sessionId'] ?? '',
    subjectId: fields['subjectId'] ?? '',
    userMessageId: fields['userMessageId'] ?? '',
    createdAt: Number(fields['createdAt']),
    start: JSON.parse(fields['start'] ?? '{}') as StoredRun['start'],
    firstSeq: Number(fields['firstSeq']),
    lastSeq: Number(fields['lastSeq']),
    endedAt: fields['endedAt'] === undefined ? null : Number(fields['endedAt']),
    finalSnapshot:
      stripped === null
        ? null
        : { ...stripped, messages: messageJsons.map((json) => JSON.parse(json) as SnapshotMessage) },
    isCompacted: fields['compacted'] === '1',
  };
}

/** A row of `LIST_TURN_LINKS` as a {@link StoredTurnLink}. */
export function toTurnLink(row: unknown): StoredTurnLink {
  const [runId, userMessageId, kind, parent, replaces, last] = Array.isArray(row) ? (row as unknown[]) : [];
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  let parentMessageId: string | null | undefined = kind === 'id' ? text(parent) : kind === 'null' ? null : undefined;
  let replacesRunId = text(replaces);
  if (kind === 'json') {
    const start = JSON.parse(text(parent) ?? '{}') as Partial<StoredRun['start']>;
    parentMessageId = start.parentMessageId;
    replacesRunId = start.replacesRunId;
  }
  return {
    runId: String(runId),
    userMessageId: String(userMessageId),
    parentMessageId,
    ...(replacesRunId === undefined ? {} : { replacesRunId }),
    lastMessageId: text(last) ?? null,
  };
}

/** `rows` holds up to `limit + 1` items: the extra one only says that another page exists. */
export function toPage<T>(rows: T[], limit: number, idOf: (item: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last !== undefined ? idOf(last) : null };
}
