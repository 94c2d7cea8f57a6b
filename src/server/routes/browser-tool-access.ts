import type { EventEnvelope, RunSnapshot, SnapshotToolCall, ToolReceiptResponse } from '../../core/protocol.ts';
import { IDEMPOTENT_REPLAYED_HEADER, REQUEST_ID_HEADER, TOOL_GRANT_HEADER } from '../../core/protocol.ts';
import { jsonResponse } from '../http/respond.ts';
import type { BrowserToolRuntime } from '../executors/browser-tool-runtime.ts';
import type { ExecutorLease } from '../executors/executor-registry.ts';
import { DomainError } from '../domain-error.ts';
import { fail } from '../http/problem-error.ts';
import type { RunEntry } from '../runs/run-store.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';

/** What an executor id looks like: it travels in paths, so the path segment's alphabet. */
const EXECUTOR_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The browser tool runtime once the product allowed `executorId` for the caller
 * (`canUseExecutor`), else `403 FORBIDDEN`: also when browser tools are off (fail closed). A
 * check that throws denies too.
 */
export async function requireExecutorAccess(
  request: RequestContext,
  context: HandlerContext,
  executorId: string,
): Promise<BrowserToolRuntime> {
  const runtime = context.browserTools;
  const isAllowed =
    runtime !== null &&
    (await Promise.resolve()
      .then(() => runtime.canUseExecutor(request.subject, executorId))
      .catch(() => false)) === true;
  if (runtime === null || !isAllowed) {
    return fail({
      code: 'FORBIDDEN',
      detail: 'This executor may not run browser tools here.',
      details: { reason: runtime === null ? 'browser_tools_off' : 'executor_not_permitted' },
    });
  }
  return runtime;
}

/** The caller's connected executor `executorId`, else `409 EXECUTOR_NOT_CONNECTED`. */
export async function requireLease(
  request: RequestContext,
  runtime: BrowserToolRuntime,
  executorId: string,
): Promise<ExecutorLease> {
  const lease = await runtime.executors.find(request.subject.id, executorId);
  if (lease === undefined)
    return fail({ code: 'EXECUTOR_NOT_CONNECTED', detail: 'Connect the executor first.', details: { executorId } });
  return lease;
}

/** Validates an executor id from a body or a path (`422 VALIDATION_FAILED`, field named). */
export function parseExecutorId(value: unknown, field = 'executorId'): string {
  if (typeof value !== 'string' || !EXECUTOR_ID_PATTERN.test(value))
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} must be 1–64 letters, digits, "_" or "-".`,
      details: { field },
    });
  return value;
}

/** The caller's run named by `runId`, else `404 TOOL_CALL_NOT_FOUND` (another user's run included). */
export async function requireToolCallRun(
  request: RequestContext,
  context: HandlerContext,
  runId: string,
): Promise<RunEntry> {
  try {
    return await requireOwnedRun({ ...request, params: { ...request.params, runId } }, context);
  } catch (error) {
    if (error instanceof DomainError && error.init.code === 'NOT_FOUND')
      return fail({ code: 'TOOL_CALL_NOT_FOUND', detail: 'No such tool call.' });
    throw error;
  }
}

/** The browser call `toolCallId` of the snapshot, else `404 TOOL_CALL_NOT_FOUND` (a server tool's call included). */
export function requireBrowserCall(snapshot: RunSnapshot, toolCallId: string): SnapshotToolCall {
  const call = snapshot.toolCalls.find((candidate) => candidate.toolCallId === toolCallId);
  if (call?.executor === undefined)
    return fail({ code: 'TOOL_CALL_NOT_FOUND', detail: 'No such browser tool call.', runId: snapshot.runId });
  return call;
}

/** `X-Tool-Grant` of the request ('' when missing). */
export function readGrant(request: RequestContext): string {
  return request.raw.headers.get(TOOL_GRANT_HEADER)?.trim() ?? '';
}

/** Throws `403 TOOL_GRANT_INVALID` unless `executorId` holds the call's claim and `grant` is its grant. */
export function requireGrant(
  runtime: BrowserToolRuntime,
  call: SnapshotToolCall,
  claim: { executorId: string; grant: string },
): void {
  const executor = call.executor;
  const isHolder =
    executor?.executorId === claim.executorId &&
    executor.grantDigest !== undefined &&
    runtime.grants.matches(claim.grant, executor.grantDigest);
  if (!isHolder)
    fail({ code: 'TOOL_GRANT_INVALID', detail: 'This executor does not hold the claim; claim the call again.' });
}

/**
 * The answer to a receipt or a report: `200 {accepted: true, replayed?, late?, cancelRequested?,
 * eventSeq?}` (the seq of what it appended), with `Idempotent-Replayed: true` on a repeat.
 */
export function toolAnswerResponse(
  request: RequestContext,
  options: { answer: { late?: true; replayed?: true }; appended: readonly EventEnvelope[]; isCancelling?: boolean },
): Response {
  const { answer, appended } = options;
  const response: ToolReceiptResponse = {
    accepted: true,
    ...answer,
    ...(options.isCancelling === true ? { cancelRequested: true as const } : {}),
    ...(appended[0] === undefined ? {} : { eventSeq: appended[0].seq }),
  };
  const headers: Record<string, string> = { [REQUEST_ID_HEADER]: request.requestId };
  if (answer.replayed === true) headers[IDEMPOTENT_REPLAYED_HEADER] = 'true';
  return jsonResponse(200, response, headers);
}
