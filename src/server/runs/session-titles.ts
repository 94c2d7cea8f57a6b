import type { AgentStorage } from '../storage/storage-port.ts';
import type { Subject } from './run-handle.ts';

/**
 * The product's title suggestion for a new session (docs/server.md, "Conversations"), e.g. from a
 * short model call: called once after the session's first run is committed, never awaited by the
 * request. A string replaces the default title unless the user renamed the session meanwhile;
 * null (or a throw, which is reported) keeps the default.
 */
export type SuggestSessionTitle = (request: {
  subject: Subject;
  sessionId: string;
  /** The text of the first user message. */
  text: string;
}) => string | null | Promise<string | null>;

const TITLE_CHARS = 80;

/** Makes a session's title from its first message: one line of at most 80 characters, or null. */
export function makeSessionTitle(text: string): string | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/**
 * Asks `suggest` for a title and stores it (made one line of at most 80 characters) only while the
 * session's title is still `defaultTitle`, so a rename always wins. Resolves once done; failures go
 * to `onError`.
 */
export async function applySuggestedTitle(options: {
  storage: AgentStorage;
  suggest: SuggestSessionTitle;
  subject: Subject;
  sessionId: string;
  text: string;
  defaultTitle: string | null;
  onError: (error: unknown, context: { where: string }) => void;
}): Promise<void> {
  const { storage, suggest, subject, sessionId, text, defaultTitle } = options;
  try {
    const suggested = await suggest({ subject, sessionId, text });
    const title = suggested === null ? null : makeSessionTitle(suggested);
    if (title === null || title === defaultTitle) return;
    await storage.updateSessionTitle({ sessionId, subjectId: subject.id, title, expectedTitle: defaultTitle });
  } catch (error) {
    options.onError(error, { where: 'suggestTitle' });
  }
}
