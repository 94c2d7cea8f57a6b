import type { SessionListResponse, SessionMessagesResponse, SessionResource } from '../../core/protocol.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { sendJson } from '../http/respond.ts';
import type { SessionRecord } from '../runs/run-store.ts';
import type { HandlerContext, Route } from './route-context.ts';
import { activeRunOf, requireOwnedSession, toIso } from './route-context.ts';

/** `GET /sessions?limit&after`: the caller's sessions, newest first, cursor-paginated. */
export const listSessionsRoute: Route = {
  method: 'GET',
  template: '/sessions',
  handle: async (request, context) => {
    const limit = parseLimit(request.url.searchParams.get('limit'), 20, 100);
    const sessions = context.store.listSessions(request.subject.id);
    const start = pageStart(
      sessions.map((s) => s.sessionId),
      request.url.searchParams.get('after'),
      'after',
    );
    const page = sessions.slice(start, start + limit);
    const hasMore = start + limit < sessions.length;
    const body: SessionListResponse = {
      items: page.map((session) => toSessionResource(session, context)),
      nextAfter: hasMore ? (page[page.length - 1]?.sessionId ?? null) : null,
    };
    sendJson(request.res, 200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** `GET /sessions/{sessionId}`: metadata with the pinned version and the active run. */
export const getSessionRoute: Route = {
  method: 'GET',
  template: '/sessions/{sessionId}',
  handle: async (request, context) => {
    const session = requireOwnedSession(request, context);
    sendJson(request.res, 200, toSessionResource(session, context), { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** `GET /sessions/{sessionId}/messages?before&limit`: settled messages (terminal runs), newest first. */
export const sessionMessagesRoute: Route = {
  method: 'GET',
  template: '/sessions/{sessionId}/messages',
  handle: async (request, context) => {
    const session = requireOwnedSession(request, context);
    const limit = parseLimit(request.url.searchParams.get('limit'), 50, 200);
    const messages = context.store.settledMessages(session.sessionId).reverse();
    const start = pageStart(
      messages.map((m) => m.messageId),
      request.url.searchParams.get('before'),
      'before',
    );
    const page = messages.slice(start, start + limit);
    const body: SessionMessagesResponse = {
      items: page,
      nextBefore: start + limit < messages.length ? (page[page.length - 1]?.messageId ?? null) : null,
      activeRun: activeRunOf(session, context),
    };
    sendJson(request.res, 200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

function toSessionResource(session: SessionRecord, context: HandlerContext): SessionResource {
  return {
    sessionId: session.sessionId,
    agentVersionId: session.agentVersionId,
    title: session.title,
    activeRun: activeRunOf(session, context),
    lastRunId: session.lastRunId,
    createdAt: toIso(session.createdAt),
    updatedAt: toIso(session.updatedAt),
  };
}

function parseLimit(value: string | null, fallback: number, max: number): number {
  if (value === null) return fallback;
  if (!/^[1-9][0-9]{0,3}$/.test(value) || Number(value) > max) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `limit must be an integer from 1 to ${max}.`,
      details: { field: 'limit', max },
    });
  }
  return Number(value);
}

function pageStart(ids: readonly string[], cursor: string | null, field: string): number {
  if (cursor === null) return 0;
  const index = ids.indexOf(cursor);
  if (index < 0)
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} is not a cursor from a previous page.`,
      details: { field },
    });
  return index + 1;
}
