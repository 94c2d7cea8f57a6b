import type { ResumeEntry } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { InputContent, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { validateOptionalString } from '../operations/validate-fields.ts';

/** What the AG-UI endpoint reads from a `RunAgentInput` (docs/ag-ui.md, "Producer"). */
export interface AgUiRunRequest {
  threadId: string;
  runId: string;
  /** The new user turn: the last message, when the request is not a resume. */
  userMessage?: { id: string; content: InputContent[] };
  /** The id of the message before the new turn, when there is one: where a client that cut its messages branches. */
  previousMessageId?: string;
  /** Answers to the interrupts that ended the previous AG-UI run; empty for a new turn. */
  resume: ResumeEntry[];
}

/**
 * Reads the AG-UI `runId` (the idempotency key, docs/ag-ui.md) from a body before anything else
 * is checked: a non-empty string of at most `maxIdChars`, else `422 VALIDATION_FAILED`.
 */
export function readAgUiRunId(body: unknown, limits: Pick<Limits, 'maxIdChars'>): string {
  const runId = isObject(body) ? body.runId : undefined;
  if (runId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'runId is required: it identifies the AG-UI run and makes a retry safe.',
      details: { field: 'runId' },
    });
  }
  return validateOptionalString(runId, {
    field: 'runId',
    limit: 'maxIdChars',
    max: limits.maxIdChars,
    isEmptyAllowed: false,
  }) as string;
}

/** How many resume answers a body carries (counted against the rate before it is validated). */
export function countResumeAnswers(body: unknown): number {
  const resume = isObject(body) ? body.resume : undefined;
  return Array.isArray(resume) ? resume.length : 0;
}

/**
 * Validates a body against `@ag-ui/core`'s `RunAgentInput` schema and our field limits, or throws
 * `422 VALIDATION_FAILED` (`details.field` names the path). `threadId` and `runId` are at most
 * `maxIdChars`. Without `resume`, the last message must be the user's: its text parts (a string
 * content is one part) become the turn, checked later like any create's; a media part is `422
 * UNSUPPORTED_CONTENT` there. Everything else (`state`, `tools`, `context`, `forwardedProps`,
 * earlier messages) is read by no one: the server keeps the thread's history itself.
 */
export function readRunAgentInput(body: unknown, limits: Pick<Limits, 'maxIdChars'>): AgUiRunRequest {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.');
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `The body is not an AG-UI RunAgentInput: ${field}: ${issue?.message ?? 'invalid'}.`,
      details: { field, reason: 'ag_ui_schema' },
    });
  }
  const input = parsed.data;
  const idLimit = { limit: 'maxIdChars', max: limits.maxIdChars, isEmptyAllowed: false } as const;
  const threadId = validateOptionalString(input.threadId, { field: 'threadId', ...idLimit }) as string;
  const runId = readAgUiRunId(input, limits);
  const resume = (input.resume ?? []) as ResumeEntry[];
  if (new Set(resume.map((entry) => entry.interruptId)).size !== resume.length) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'Each interrupt may be answered once per request.',
      details: { field: 'resume', reason: 'duplicate_interrupt' },
    });
  }
  if (resume.length > 0) return { threadId, runId, resume };
  const last = input.messages.at(-1);
  if (last === undefined || last.role !== 'user') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The last message must be the user’s new turn (or send resume answers).',
      details: { field: 'messages', reason: 'no_user_turn' },
    });
  }
  const parts = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  const previousMessageId = input.messages.at(-2)?.id;
  return {
    threadId,
    runId,
    userMessage: { id: last.id, content: parts as InputContent[] },
    resume,
    ...(previousMessageId === undefined ? {} : { previousMessageId }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
