import { fail } from '../http/problem-error.ts';
import type { RunEntry } from '../runs/run-store.ts';
import type { StoredSession } from '../storage/storage-port.ts';
import type { HandlerContext, RequestContext } from './operation-context.ts';

/** Returns the caller's run, or throws `404 NOT_FOUND` (also for another subject's run). */
export async function requireOwnedRun(request: RequestContext, context: HandlerContext): Promise<RunEntry> {
  const entry = await context.store.getRun(request.params.runId ?? '');
  if (entry === null || entry.subjectId !== request.subject.id)
    return fail({ code: 'NOT_FOUND', detail: 'No such run.' });
  return entry;
}

/** Returns the caller's session, or throws `404 NOT_FOUND` (also for another subject's session). */
export async function requireOwnedSession(request: RequestContext, context: HandlerContext): Promise<StoredSession> {
  const session = await context.store.getSession(request.params.sessionId ?? '');
  if (session === null || session.subjectId !== request.subject.id)
    return fail({ code: 'NOT_FOUND', detail: 'No such session.' });
  return session;
}
