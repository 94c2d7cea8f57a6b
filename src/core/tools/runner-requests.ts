import type {
  ClaimToolCallResponse,
  ExecutorReportRequest,
  ToolReceiptRequest,
  ToolReceiptResponse,
} from '../protocol.ts';
import { TOOL_GRANT_HEADER } from '../protocol.ts';
import { agentFailure, isAgentError } from '../transport/agent-error.ts';
import type { RunnerContext } from './runner-context.ts';
import type { BrowserToolCall } from './tool-runner-types.ts';

/** Attempts of one receipt (same id, same body) before it waits for the runner's next round. */
const RECEIPT_ATTEMPTS = 6;

function callPath(call: BrowserToolCall): string {
  return `/runs/${encodeURIComponent(call.runId)}/tool-calls/${encodeURIComponent(call.toolCallId)}`;
}

async function post<T>(context: RunnerContext, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await context.client.request<T>({
    method: 'POST',
    path,
    body: JSON.stringify(body),
    headers,
    attempts: RECEIPT_ATTEMPTS,
  });
  if (response.body === null) throw agentFailure('INVALID_RESPONSE', { status: response.status });
  return response.body;
}

/**
 * Claims the call for this executor (docs/protocol.md §19.3); an executor the server no longer
 * knows (a restart, an expired lease) connects again and claims once more.
 */
export async function claimCall(context: RunnerContext, call: BrowserToolCall): Promise<ClaimToolCallResponse> {
  const claim = () =>
    post<ClaimToolCallResponse>(context, `${callPath(call)}/claim`, { executorId: context.executorId });
  try {
    return await claim();
  } catch (error) {
    if (!isAgentError(error) || error.code !== 'EXECUTOR_NOT_CONNECTED') throw error;
    await context.connect();
    return claim();
  }
}

/** Sends one receipt with the grant; network failures are retried with the same receipt id. */
export function sendReceipt(
  context: RunnerContext,
  call: BrowserToolCall,
  grant: string,
  receipt: Omit<ToolReceiptRequest, 'executorId'>,
): Promise<ToolReceiptResponse> {
  return post<ToolReceiptResponse>(
    context,
    `${callPath(call)}/receipts`,
    { executorId: context.executorId, ...receipt },
    { [TOOL_GRANT_HEADER]: grant },
  );
}

/** Reports that the call's outcome cannot be confirmed: the server ends it `unknown`. */
export function reportReconciliation(
  context: RunnerContext,
  call: BrowserToolCall,
  grant: string,
): Promise<ToolReceiptResponse> {
  const body: ExecutorReportRequest = {
    runId: call.runId,
    toolCallId: call.toolCallId,
    code: 'reconciliation_required',
    message: 'The page could not confirm what the tool did.',
  };
  return post<ToolReceiptResponse>(context, `/executors/${encodeURIComponent(context.executorId)}/report`, body, {
    [TOOL_GRANT_HEADER]: grant,
  });
}
