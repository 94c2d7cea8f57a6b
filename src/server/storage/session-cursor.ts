import type { StoredSession } from './storage-port.ts';

/** Where a page of `listSessions` ended: the last item's activity time and id. */
export interface SessionCursor {
  updatedAt: number;
  sessionId: string;
}

const CURSOR_PATTERN = /^([0-9]{1,15})\.([A-Za-z0-9_-]{1,128})$/;

/** Makes the `next` cursor of a sessions page from its last item: `<updatedAt>.<sessionId>`. */
export function encodeSessionCursor(session: Pick<StoredSession, 'updatedAt' | 'sessionId'>): string {
  return `${session.updatedAt}.${session.sessionId}`;
}

/** Reads a cursor made by {@link encodeSessionCursor}; null for anything else. */
export function decodeSessionCursor(text: string): SessionCursor | null {
  const match = CURSOR_PATTERN.exec(text);
  if (match === null) return null;
  return { updatedAt: Number(match[1]), sessionId: match[2] as string };
}

/** Orders sessions most recent activity first, then by id descending (the order of every listing). */
export function compareByActivity(
  a: Pick<StoredSession, 'updatedAt' | 'sessionId'>,
  b: Pick<StoredSession, 'updatedAt' | 'sessionId'>,
): number {
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  if (a.sessionId === b.sessionId) return 0;
  return a.sessionId < b.sessionId ? 1 : -1;
}
