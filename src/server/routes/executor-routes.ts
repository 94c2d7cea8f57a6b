import type {
  DisconnectExecutorResponse,
  ExecutorLeaseResponse,
  PendingToolCallsResponse,
} from '../../core/protocol.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { listPendingCalls, releaseUnstartedClaims } from '../executors/browser-calls.ts';
import type { BrowserToolRuntime } from '../executors/browser-tool-runtime.ts';
import type { ExecutorLease } from '../executors/executor-registry.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { parseExecutorId, requireExecutorAccess, requireLease } from './browser-tool-access.ts';
import type { Route } from './route-context.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';

const MAX_PENDING_PAGE = 50;
/** `Retry-After` of a connect refused because every executor slot is taken (leases expire within 45 s). */
const EXECUTORS_FULL_RETRY_AFTER_MS = 15_000;

/**
 * Counts one executor request against `executorRequestsPerMinute`, then checks that the product
 * allows the path's executor (docs/protocol.md §19.4); resolves with its id and the runtime.
 */
export async function admitExecutor(
  request: RequestContext,
  context: HandlerContext,
): Promise<{ executorId: string; runtime: BrowserToolRuntime }> {
  await enforceRateLimit({
    limiter: context.rateLimiter,
    limits: context.limits,
    identityId: request.identityId,
    limit: 'executorRequestsPerMinute',
  });
  const executorId = parseExecutorId(request.params.executorId, 'executorId');
  return { executorId, runtime: await requireExecutorAccess(request, context, executorId) };
}

function leaseResponse(lease: ExecutorLease, context: HandlerContext): ExecutorLeaseResponse {
  return {
    executorId: lease.executorId,
    expiresAt: new Date(lease.expiresAt).toISOString(),
    heartbeatSec: context.limits.executorHeartbeatSec,
  };
}

/** `POST /executors/{executorId}/connect` `{tools}`: registers the executor and the browser tools it runs. */
export const connectExecutorRoute: Route = {
  method: 'POST',
  template: '/executors/{executorId}/connect',
  rate: 'executorRequestsPerMinute',
  handle: async (request, context) => {
    const { executorId, runtime } = await admitExecutor(request, context);
    const { tools } = parseContractBody('ConnectExecutorRequest', request.body, { limits: context.limits });
    const lease = await runtime.executors.connect(request.subject.id, executorId, tools);
    if (lease === null) {
      return fail({
        code: 'AGENT_UNAVAILABLE',
        detail: 'Every executor slot of the server is taken; retry shortly.',
        retryAfterMs: EXECUTORS_FULL_RETRY_AFTER_MS,
        details: { reason: 'capacity', limit: 'maxExecutors' },
      });
    }
    return jsonResponse(200, leaseResponse(lease, context), { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** `POST /executors/{executorId}/heartbeat`: renews the lease, or `409 EXECUTOR_NOT_CONNECTED` (connect again). */
export const heartbeatExecutorRoute: Route = {
  method: 'POST',
  template: '/executors/{executorId}/heartbeat',
  rate: 'executorRequestsPerMinute',
  handle: async (request, context) => {
    const { executorId, runtime } = await admitExecutor(request, context);
    const lease =
      (await runtime.executors.heartbeat(request.subject.id, executorId)) ??
      (await requireLease(request, runtime, executorId));
    return jsonResponse(200, leaseResponse(lease, context), { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** `POST /executors/{executorId}/disconnect`: ends the lease and releases its unstarted claims (repeatable). */
export const disconnectExecutorRoute: Route = {
  method: 'POST',
  template: '/executors/{executorId}/disconnect',
  rate: 'executorRequestsPerMinute',
  handle: async (request, context) => {
    const { executorId, runtime } = await admitExecutor(request, context);
    await runtime.executors.disconnect(request.subject.id, executorId);
    const released = await releaseUnstartedClaims(
      context.store,
      { subjectId: request.subject.id, executorId },
      'disconnected',
    );
    const response: DisconnectExecutorResponse = { released };
    return jsonResponse(200, response, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/**
 * `GET /executors/{executorId}/pending?after&limit`: the open browser calls this executor may
 * claim or must finish (counted as a read, like every GET).
 */
export const pendingToolCallsRoute: Route = {
  method: 'GET',
  template: '/executors/{executorId}/pending',
  handle: async (request, context) => {
    const executorId = parseExecutorId(request.params.executorId, 'executorId');
    const runtime = await requireExecutorAccess(request, context, executorId);
    const lease = await requireLease(request, runtime, executorId);
    const after = request.url.searchParams.get('after');
    const limitText = request.url.searchParams.get('limit') ?? String(MAX_PENDING_PAGE);
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PENDING_PAGE || (after !== null && after.length > 256))
      return fail({
        code: 'VALIDATION_FAILED',
        detail: `limit is 1–${MAX_PENDING_PAGE}; after is a previous page's nextAfter.`,
        details: { field: after !== null && after.length > 256 ? 'after' : 'limit' },
      });
    const page: PendingToolCallsResponse = await listPendingCalls(context.store, lease, { after, limit });
    return jsonResponse(200, page, { [REQUEST_ID_HEADER]: request.requestId });
  },
};
