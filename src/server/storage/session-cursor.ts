/**
 * Where a page of `listSessions` ended, as every store orders it: the last item's activity time
 * (`updatedAt`), then the store's own creation order of equal times (a position, a sequence or a
 * sorted-set member), latest first.
 */
export interface SessionCursor {
  updatedAt: number;
  /** The store's tie-break key of the last item. */
  tieBreak: string;
}

const CURSOR_PATTERN = /^([0-9]{1,15})\.([A-Za-z0-9_:-]{1,200})$/;

/** Makes the opaque `next` cursor of a sessions page: `<updatedAt>.<tieBreak>`. */
export function encodeSessionCursor(cursor: SessionCursor): string {
  return `${cursor.updatedAt}.${cursor.tieBreak}`;
}

/** Reads a cursor made by {@link encodeSessionCursor}; null for anything else. */
export function decodeSessionCursor(text: string): SessionCursor | null {
  const match = CURSOR_PATTERN.exec(text);
  if (match === null) return null;
  return { updatedAt: Number(match[1]), tieBreak: match[2] as string };
}
