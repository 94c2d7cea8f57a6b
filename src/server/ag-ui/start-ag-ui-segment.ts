import type { ResumeEntry } from '@ag-ui/core';
import type { SnapshotInterrupt } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { validateCreateRun } from '../operations/create-run.ts';
import { enforceBalance } from '../operations/send-context-hooks.ts';
import type { InterruptAnswer } from '../operations/answer-interrupt.ts';
import { parseInterruptAnswer, resolveInterrupt } from '../operations/answer-interrupt.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import type { RunEntry } from '../runs/run-store.ts';
import type { IdempotencyCompletion, StoredSession } from '../storage/storage-port.ts';
import type { AgUiThreads } from './ag-ui-threads.ts';
import type { AgUiRunRequest } from './read-run-agent-input.ts';
import type { AgUiSegment } from './stream-ag-ui-segment.ts';

/** What starting or resuming an AG-UI run needs beyond the request. */
export interface AgUiSegmentStart {
  input: AgUiRunRequest;
  threads: AgUiThreads;
}

/** What starting a turn needs beyond {@link AgUiSegmentStart}. */
export interface AgUiTurnStart extends AgUiSegmentStart {
  /** The idempotency record's completion, committed with the run (as `POST /runs` does). */
  complete: (segment: AgUiSegment) => IdempotencyCompletion;
}

const CLIENT_ID_PATTERN = /^[A-Za-z0-9_.:-]+$/;

/**
 * A new user turn on an AG-UI thread (already counted against `runsPerMinute`): creates a run through
 * the same validation as `POST /runs` (field limits, agent status, `maxActiveRuns`, one active run
 * per session: `409 RUN_ALREADY_ACTIVE`), in the thread's session or a new one. The AG-UI message
 * id becomes our `clientMessageId` when it has that form. The segment is the response its
 * idempotency record keeps, completed in the run's own commit. When the message before the new one
 * ends an earlier turn of the thread's branch (the client cut its messages there), the turn branches
 * after it (docs/ag-ui.md, "Branches").
 */
export async function startAgUiTurn(
  request: RequestContext,
  context: HandlerContext,
  options: AgUiTurnStart,
): Promise<AgUiSegment> {
  const { input, threads } = options;
  const message = input.userMessage as NonNullable<AgUiRunRequest['userMessage']>;
  const thread = await findThreadSession(request, context, { threadId: input.threadId, threads });
  const sessionId = thread?.sessionId;
  const clientMessageId =
    CLIENT_ID_PATTERN.test(message.id) && message.id.length <= context.limits.maxIdChars ? message.id : undefined;
  const body = {
    // A thread keeps the agent version its session is pinned to (docs/server.md, "Options": `agent`).
    agentVersionId: thread?.agentVersionId ?? context.agent.versionId,
    ...(sessionId === undefined ? {} : { sessionId }),
    input: { content: message.content, ...(clientMessageId === undefined ? {} : { clientMessageId }) },
  };
  const validated = validateCreateRun({ ...request, body }, context);
  // A client that cut its messages before the new turn (a regeneration, an edit) branches there.
  if (sessionId !== undefined && input.previousMessageId !== undefined) {
    validated.parentMessageHint = input.previousMessageId;
  }
  await enforceBalance(context.sendHooks, request.subject);
  const segmentOf = (created: { runId: string; sessionId: string }): AgUiSegment => ({
    threadId: input.threadId,
    agUiRunId: input.runId,
    runId: created.runId,
    sessionId: created.sessionId,
    afterSeq: 0,
  });
  const { entry, session } = await context.store.createRun(validated, (created) =>
    options.complete(segmentOf(created)),
  );
  request.runSlot?.holdUntilEnd(entry.record);
  await threads.bind(request.subject.id, input.threadId, session.sessionId);
  await threads.setLiveSegment(entry.record.runId, input.runId);
  return segmentOf({ runId: entry.record.runId, sessionId: session.sessionId });
}

/**
 * A resume: answers the interrupts that ended the previous AG-UI run of the thread, each through
 * the governed path of `POST /runs/{id}/interrupts/{iid}` (each already counted against
 * `interruptAnswersPerMinute`; the approval's `argsDigest` must match, else `412`), and serves the
 * run of ours from its first answer on. `cancelled` denies an open approval and acknowledges an
 * interrupt that is no longer open (expired, or already answered), so a client can always move on.
 */
export async function resumeAgUiThread(
  request: RequestContext,
  context: HandlerContext,
  options: AgUiSegmentStart,
): Promise<AgUiSegment> {
  const { input, threads } = options;
  const session = await findThreadSession(request, context, { threadId: input.threadId, threads });
  if (session === undefined) return fail({ code: 'NOT_FOUND', detail: 'No such thread.' });
  const entry = await findInterruptRun(context, session.sessionId, input.resume);
  const seqs: number[] = [];
  for (const answer of input.resume) {
    const snapshot = await entry.record.refresh();
    const interrupt = snapshot.interrupts.find((candidate) => candidate.id === answer.interruptId);
    if (interrupt === undefined) return failUnknownInterrupt();
    const acknowledged = answer.status === 'cancelled' && interrupt.state !== 'open';
    const seq = acknowledged
      ? (entry.record.resolutionSeq(interrupt.id) ?? snapshot.lastSeq)
      : (
          await resolveInterrupt(
            entry,
            { interruptId: interrupt.id, answer: toInterruptAnswer(answer, interrupt, context) },
            context,
          )
        ).eventSeq;
    seqs.push(seq);
  }
  await threads.setLiveSegment(entry.record.runId, input.runId);
  return {
    threadId: input.threadId,
    agUiRunId: input.runId,
    runId: entry.record.runId,
    sessionId: session.sessionId,
    afterSeq: Math.min(...seqs) - 1,
  };
}

/**
 * Our session behind an AG-UI thread of the caller: the thread id itself when it is one of the
 * caller's sessions (so a client that adopts the `sessionId` of `RUN_STARTED.metadata` keeps its
 * thread across restarts), else the session this endpoint made for it, if that still exists.
 */
async function findThreadSession(
  request: RequestContext,
  context: HandlerContext,
  options: { threadId: string; threads: AgUiThreads },
): Promise<StoredSession | undefined> {
  const subjectId = request.subject.id;
  const own = await context.store.getSession(options.threadId);
  if (own !== null && own.subjectId === subjectId) return own;
  const bound = await options.threads.sessionOf(subjectId, options.threadId);
  const session = bound === undefined ? null : await context.store.getSession(bound);
  return session !== null && session.subjectId === subjectId ? session : undefined;
}

/** The session's active run, else its last one, when it holds every interrupt `resume` names. */
async function findInterruptRun(
  context: HandlerContext,
  sessionId: string,
  resume: readonly ResumeEntry[],
): Promise<RunEntry> {
  const session = await context.store.getSession(sessionId);
  for (const runId of [session?.activeRunId, session?.lastRunId]) {
    const entry = runId === null || runId === undefined ? null : await context.store.getRun(runId);
    const interrupts = entry === null ? [] : (await entry.record.refresh()).interrupts;
    if (entry !== null && resume.every((answer) => interrupts.some((i) => i.id === answer.interruptId))) return entry;
  }
  return failUnknownInterrupt();
}

function toInterruptAnswer(
  answer: ResumeEntry,
  interrupt: SnapshotInterrupt,
  context: HandlerContext,
): InterruptAnswer {
  if (interrupt.reason === 'tool_call') {
    // Abandoning an approval fails closed: it is a deny of exactly the arguments it showed.
    if (answer.status === 'cancelled')
      return { decision: 'deny', argsDigest: interrupt.argsDigest, editedArgs: undefined };
    return parseInterruptAnswer(answer.payload ?? {}, context);
  }
  if (answer.status === 'cancelled') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'An input request is answered with status "resolved" and its payload.',
      details: { field: 'resume.status' },
    });
  }
  return { response: answer.payload };
}

function failUnknownInterrupt(): never {
  return fail({ code: 'INTERRUPT_NOT_FOUND', detail: 'No such interrupt in this thread.' });
}
