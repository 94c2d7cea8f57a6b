import type { SessionListResponse, SessionMessagesResponse, SessionResource } from '../../core/protocol.ts';
import { withFeedback } from './feedback-route.ts';
import { historyRunItemsOf } from './history-run-items.ts';
import { readConversationTree, withVersions } from '../runs/conversation-tree.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import type { StoredSession } from '../storage/storage-port.ts';
import type { Route } from './route-context.ts';
import { activeRunOf, liveRunOf, toActiveRunRef, toIso } from './route-context.ts';
import type { HandlerContext } from '../operations/operation-context.ts';
import { requireOwnedSession } from '../operations/owned-resources.ts';

/** `GET /sessions?limit&after`: the caller's sessions, most recent activity first, cursor-paginated. */
export const listSessionsRoute: Route = {
  method: 'GET',
  template: '/sessions',
  handle: async (request, context) => {
    const limit = parseLimit(request.url.searchParams.get('limit'), 20, 100);
    const after = request.url.searchParams.get('after');
    const page = await context.store.listSessions(request.subject.id, {
      limit,
      ...(after === null ? {} : { after }),
    });
    if (page === null) return failCursor('after');
    const body: SessionListResponse = {
      items: await Promise.all(page.items.map((session) => toSessionResource(session, context))),
      nextAfter: page.next,
    };
    return jsonResponse(200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** `GET /sessions/{sessionId}`: metadata with the pinned version and the active run. */
export const getSessionRoute: Route = {
  method: 'GET',
  template: '/sessions/{sessionId}',
  handle: async (request, context) => {
    const session = await requireOwnedSession(request, context);
    return jsonResponse(200, await toSessionResource(session, context), { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/**
 * `GET /sessions/{sessionId}/messages?before&limit`: settled messages (terminal runs), newest first,
 * with every tool call and interrupt of the runs they come from.
 */
export const sessionMessagesRoute: Route = {
  method: 'GET',
  template: '/sessions/{sessionId}/messages',
  handle: async (request, context) => {
    const session = await requireOwnedSession(request, context);
    const limit = parseLimit(request.url.searchParams.get('limit'), 50, 200);
    const before = request.url.searchParams.get('before');
    const page = await context.store.listMessages(session.sessionId, {
      limit,
      ...(before === null ? {} : { before }),
    });
    if (page === null) return failCursor('before');
    const [items, turns, { toolCalls, interrupts }, activeRun] = await Promise.all([
      withFeedback(page.items, request.subject.id, context),
      readConversationTree(context.storage, session.sessionId),
      historyRunItemsOf(page.items, context),
      activeRunOf(session, context),
    ]);
    const body: SessionMessagesResponse = {
      items: withVersions(items, turns),
      nextBefore: page.next,
      activeRun,
      toolCalls,
      interrupts,
    };
    return jsonResponse(200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/**
 * The REST form of a stored session: its active run, message count and ISO times. The count is
 * the settled messages plus the active run's user messages (the message being answered), so a
 * first run lists as "1 message · Answering…", not 0; the run's answer counts once it settles.
 */
export async function toSessionResource(session: StoredSession, context: HandlerContext): Promise<SessionResource> {
  const [live, settled] = await Promise.all([
    liveRunOf(session, context),
    context.storage.countSessionMessages(session.sessionId),
  ]);
  const answering = live?.messages.filter((message) => message.role === 'user').length ?? 0;
  return {
    sessionId: session.sessionId,
    agentVersionId: session.agentVersionId,
    title: session.title,
    activeRun: toActiveRunRef(live),
    lastRunId: session.lastRunId,
    messageCount: settled + answering,
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

function failCursor(field: 'after' | 'before'): never {
  return fail({
    code: 'VALIDATION_FAILED',
    detail: `${field} is not a cursor from a previous page.`,
    details: { field },
  });
}
