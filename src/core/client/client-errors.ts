import type { RunSnapshot } from '../protocol.ts';
import { AgentError, isAgentError } from '../transport/agent-error.ts';
import type { ClientError } from './client-state.ts';

/** Codes the client core itself rejects with (no request was made, or none could help). */
export type ClientErrorCode =
  | 'SEND_IN_PROGRESS'
  | 'INTERRUPT_UNKNOWN'
  | 'CLIENT_DISPOSED'
  | 'PROTOCOL_MISMATCH'
  | 'RUN_NOT_ACTIVE'
  | 'NOTHING_TO_RETRY'
  | 'PENDING_SEND_EXPIRED'
  | 'STREAM_STALLED';

const MESSAGES: Record<ClientErrorCode, string> = {
  SEND_IN_PROGRESS: 'A message is still being sent.',
  INTERRUPT_UNKNOWN: 'That approval is not open.',
  CLIENT_DISPOSED: 'The client was disposed.',
  PROTOCOL_MISMATCH: 'Not an agent-chat v1 server.',
  RUN_NOT_ACTIVE: 'No run is active.',
  NOTHING_TO_RETRY: 'Nothing to retry.',
  PENDING_SEND_EXPIRED: 'Your message was not confirmed; send it again.',
  STREAM_STALLED: 'The connection stalled.',
};

/** Builds the `AgentError` of a misuse or a client-side condition (status null, no request), with the code's one message. */
export function createClientError(
  code: ClientErrorCode,
  init: { retryable?: boolean; runId?: string } = {},
): AgentError {
  return new AgentError({ code, message: MESSAGES[code], ...init });
}

/** Turns any failure into the `ClientError` the UI shows. */
export function toClientError(error: unknown, source: ClientError['source'], retryable?: boolean): ClientError {
  const agentError = isAgentError(error)
    ? error
    : new AgentError({ code: 'INTERNAL', message: 'Something went wrong.', cause: error });
  const clientError: ClientError = {
    code: agentError.code,
    message: agentError.message,
    reference: agentError.requestId,
    retryable: retryable ?? agentError.retryable,
    source,
  };
  if (agentError.runId !== null) clientError.runId = agentError.runId;
  return clientError;
}

/** The `ClientError` of a run that ended with `RUN_ERROR`, or null. */
export function runErrorOf(run: RunSnapshot): ClientError | null {
  if (run.error === null) return null;
  return {
    code: run.error.code,
    message: run.error.message,
    reference: run.error.correlationId ?? null,
    retryable: run.error.retryable,
    source: 'run',
    runId: run.runId,
  };
}
