import type {
  BrowserToolDeclaration,
  FocusSummary,
  ContextRef,
  CreateRunRequest,
  EventEnvelope,
  InputContent,
  ReasoningEffort,
  RunSnapshot,
  SnapshotMessage,
} from '../../core/protocol.ts';
import { PROTOCOL_MAJOR, PROTOCOL_VERSION } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';
import { ACTIVE_RUNS_RETRY_AFTER_MS } from '../limits/rate-limits.ts';
import { IdempotencyLockLostError } from '../storage/storage-port.ts';
import type { AgentStorage, IdempotencyCompletion, Page, RunStart, StoredSession } from '../storage/storage-port.ts';
import type { Clock } from '../../core/clock.ts';
import { unrefTimer } from '../unref-timer.ts';
import { buildForcedCancel } from './forced-endings.ts';
import type { RunEngine, RunInput } from './run-handle.ts';
import { pickDefined } from '../../core/pick-defined.ts';
import type { RunRecord } from './run-record.ts';
import { checkSizes } from './run-record.ts';
import { createLiveRuns, findCancellingEvent } from './live-runs.ts';
import type { SuggestSessionTitle } from './session-titles.ts';
import { applySuggestedTitle, makeSessionTitle } from './session-titles.ts';
import type { RetentionPolicy } from './live-runs.ts';
import { placeTurn } from './branch-placement.ts';
import { historyOf, readShownBranch, withoutRuns } from './shown-branch.ts';

export type { RetentionPolicy } from './live-runs.ts';

/** A run as the routes see it: its writer plus who owns it and what started it. */
export interface RunEntry {
  record: RunRecord;
  subjectId: string;
  userMessageId: string;
  createdAt: number;
}

/** What a create answers with, known before it commits (so its idempotency record commits with it). */
export interface CreatedRun {
  runId: string;
  sessionId: string;
  userMessageId: string;
  createdAt: number;
}

/** What `createRun` needs; the route has validated it. */
export interface CreateRunInput {
  subject: RunStart['subject'];
  sessionId?: string;
  /** The session's latest run, ended failed or cancelled, that this one answers again (docs/protocol.md §5.2). */
  retryOf?: string;
  /** The message the turn follows on the branch shown (docs/protocol.md §5.2); omitted: after its last one. */
  parentMessageId?: string | null;
  /**
   * A message the turn follows only when it ends a turn on the branch shown, else the turn goes
   * after the branch's last message (AG-UI's message before the new one: docs/ag-ui.md, "Branches").
   */
  parentMessageHint?: string;
  agent: { agentId: string; versionId: string };
  model: { modelId: string; reasoningEffort?: ReasoningEffort } | null;
  input: {
    clientMessageId?: string;
    content: InputContent[];
    contextRefs?: ContextRef[];
  } & Pick<RunInput, 'instruction' | 'focus' | 'attachments' | 'files' | 'widgetAction'>;
  options: NonNullable<CreateRunRequest['options']>;
  /** The creating request's preferred locale (`Accept-Language`), when it named one. */
  locale?: string;
  /** The browser tools the run may call (docs/protocol.md §19), already validated; omitted when none. */
  browserTools?: BrowserToolDeclaration[];
}

/** Options of {@link createRunStore}. */
export interface RunStoreOptions {
  storage: AgentStorage;
  engine: RunEngine;
  clock: Clock;
  ids: (prefix: string) => string;
  /** How long a cancelled run's engine may take before the reaper force-closes it. */
  cancelGraceMs: number;
  /** What is kept how long (compaction, idle sessions, caps). */
  retention: RetentionPolicy;
  /** Runs of one subject this process is producing; one more is `429 RATE_LIMITED` (docs/protocol.md §16.1). */
  maxActiveRunsPerSubject: number;
  /** `RUN_STARTED` (built from the request) past this many bytes is `422 VALIDATION_FAILED`. */
  maxEventBytes: number;
  /** How long a run's lease lasts unless its producer renews it (renewed every third of it). */
  leaseTtlMs: number;
  /** Reads an attached file's bytes for the engine (`RunHandle.readAttachment`); absent when the server keeps none. */
  readAttachment?: (ownerId: string, attachmentId: string) => Promise<Uint8Array | null>;
  /** Given to every run's handle (`RunHandle.interruptTtlMs`): the published `interruptDefaultTtlSec`. */
  interruptTtlMs?: number;
  /** Where engine failures are reported (never to the browser). */
  onEngineError: (error: unknown, context: { runId: string; correlationId: string }) => void;
  /** The product's title for a new session, asked once after its first run is committed. */
  suggestTitle?: SuggestSessionTitle;
  /** Where other failures (sweeps, lease renewals, the reaper, title suggestions) are reported. */
  onError: (error: unknown, context: { runId?: string; where: string }) => void;
}

/** Sessions and runs over the storage port: creates runs, hands them to the engine, cancels, reaps and resumes. */
export interface RunStore {
  /**
   * Commits a run (its session, `RUN_STARTED`, this process's lease and, when given, the
   * completed idempotency record, together), then starts the engine.
   */
  createRun(
    input: CreateRunInput,
    complete?: (created: CreatedRun) => IdempotencyCompletion,
  ): Promise<{ entry: RunEntry; session: StoredSession }>;
  getRun(runId: string): Promise<RunEntry | null>;
  getSession(sessionId: string): Promise<StoredSession | null>;
  /** The subject's sessions, most recent activity first; null when `after` is not a cursor. */
  listSessions(subjectId: string, page: { after?: string; limit: number }): Promise<Page<StoredSession> | null>;
  /** Settled messages (terminal runs only) of a session, newest first; null when `before` is unknown. */
  listMessages(sessionId: string, page: { before?: string; limit?: number }): Promise<Page<SnapshotMessage> | null>;
  /** Ids of the session's runs, oldest first. */
  listSessionRunIds(sessionId: string): Promise<string[]>;
  /** Requests cancellation; `200` when the run had already ended. */
  cancelRun(
    runId: string,
    reason?: string,
  ): Promise<{ httpStatus: 200 | 202; status: RunSnapshot['status']; eventSeq?: number }>;
  /** Compacts the logs of runs ended longer than the retention ago, forgets expired keys, evicts idle sessions. */
  sweep(): Promise<void>;
  /** Ends or resumes runs whose producer stopped renewing its lease (at start-up and on a timer). */
  reap(): Promise<void>;
  /** How many sessions and runs are kept. */
  counts(): Promise<{ sessions: number; runs: number }>;
  /** Stops the timers (runs themselves are left to their engines; their leases lapse). */
  close(): void;
}

/** How long a new session refused by a full store is told to wait (a guess: room comes as sessions idle). */
export const STORE_FULL_RETRY_AFTER_MS = 60_000;

/** Creates the run store over the storage port. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { storage, clock, ids } = options;
  const live = createLiveRuns(options);

  /** Refuses a retry of a run that is not the subject's, not in the session, or did not end failed or cancelled. */
  async function checkRetryable(retryOf: string, sessionId: string, subjectId: string): Promise<void> {
    const replaced = await storage.getRun(retryOf);
    if (replaced === null || replaced.subjectId !== subjectId || replaced.sessionId !== sessionId) {
      return refuse({ code: 'NOT_FOUND', detail: 'retryOf names no run of this session.', details: { retryOf } });
    }
    const status = replaced.finalSnapshot?.status;
    if (status !== 'failed' && status !== 'cancelled') {
      return refuse({
        code: 'RUN_NOT_RETRYABLE',
        detail: 'Only a run that ended failed or cancelled can be answered again.',
        details: { retryOf, status: status ?? 'active' },
      });
    }
  }

  /**
   * Refuses a new session while the store is at a cap and none of its sessions may go (each was
   * active within `protectActiveSessionsMs`): the caps never evict another identity's recent ones.
   */
  async function checkSessionRoom(now: number): Promise<void> {
    const { maxSessions, maxRuns, protectActiveSessionsMs } = options.retention;
    const room = await storage.checkSessionRoom({ now, maxSessions, maxRuns, protectActiveSessionsMs });
    if (room.kind === 'room') return;
    refuse({
      code: 'AGENT_UNAVAILABLE',
      detail: 'The server keeps as many conversations as it can right now; continue one, or try again later.',
      retryAfterMs: STORE_FULL_RETRY_AFTER_MS,
      details: { reason: 'capacity', limit: room.limit },
    });
  }

  return {
    async createRun(input, complete) {
      const now = clock.now();
      // Every process's runs when the storage counts them (Redis), else the ones this process produces.
      const active = (await storage.countActiveRuns?.(input.subject.id)) ?? live.activeCount(input.subject.id);
      if (active >= options.maxActiveRunsPerSubject) {
        const maxActive = options.maxActiveRunsPerSubject;
        return refuse({
          code: 'RATE_LIMITED',
          detail: `At most ${maxActive} answers may run at once; wait for one to finish.`,
          retryAfterMs: ACTIVE_RUNS_RETRY_AFTER_MS,
          details: { limit: 'maxActiveRuns', maxActiveRuns: maxActive },
        });
      }
      if (input.sessionId === undefined) await checkSessionRoom(now);
      const sessionId = input.sessionId ?? ids('ses');
      const runId = ids('run');
      const userMessageId = ids('msg');
      const text = input.input.content.map((part) => part.text).join('');
      const { instruction, focus, attachments, files, widgetAction } = input.input;
      if (input.retryOf !== undefined) await checkRetryable(input.retryOf, sessionId, input.subject.id);
      const shown = withoutRuns(
        input.sessionId === undefined ? { messages: [], toolCalls: [] } : await readShownBranch(storage, sessionId),
        [input.retryOf],
      );
      const placement =
        input.parentMessageHint === undefined
          ? placeTurn(shown.messages, input.parentMessageId)
          : (placeTurn(shown.messages, input.parentMessageHint) ?? placeTurn(shown.messages, undefined));
      if (placement === null) {
        return refuse({
          code: 'VALIDATION_FAILED',
          detail: 'parentMessageId names no turn end on the branch shown.',
          details: { field: 'parentMessageId', reason: 'not_a_turn_end' },
        });
      }
      const { parentMessageId, leavingRunIds } = placement;
      const history = historyOf(withoutRuns(shown, leavingRunIds));
      const started: EventEnvelope<'RUN_STARTED'> = {
        v: PROTOCOL_MAJOR,
        eventId: ids('evt'),
        runId,
        sessionId,
        seq: 1,
        cursor: '1',
        type: 'RUN_STARTED',
        timestamp: now,
        data: {
          protocolVersion: PROTOCOL_VERSION,
          agent: input.agent,
          ...(input.model === null ? {} : { model: input.model }),
          input: {
            messageId: userMessageId,
            ...optional('clientMessageId', input.input.clientMessageId),
            content: input.input.content,
            ...optional('contextRefs', input.input.contextRefs),
            ...(files === undefined || files.length === 0 ? {} : { attachments: files }),
            ...(focus === undefined ? {} : { focus: summarizeFocus(focus) }),
            ...(parentMessageId === null ? {} : { parentMessageId }),
          },
          traceId: ids('trc'),
          ...optional('browserTools', input.browserTools),
        },
      };
      checkSizes([started], { maxEventBytes: options.maxEventBytes, field: 'input' });
      const start: RunStart = {
        subject: input.subject,
        input: {
          messageId: userMessageId,
          text,
          ...pickDefined({
            contextRefs: input.input.contextRefs,
            instruction,
            focus,
            attachments,
            files,
            widgetAction,
          }),
        },
        options: input.options,
        parentMessageId,
        ...optional('replacesRunId', input.retryOf),
        ...optional('locale', input.locale),
        ...optional('browserTools', input.browserTools),
      };
      const newSession: StoredSession = {
        sessionId,
        subjectId: input.subject.id,
        agentVersionId: input.agent.versionId,
        title: null,
        createdAt: now,
        updatedAt: now,
        activeRunId: runId,
        lastRunId: runId,
      };
      const entry: RunEntry = {
        record: live.newRecord(runId, sessionId, [started]),
        subjectId: input.subject.id,
        userMessageId,
        createdAt: now,
      };
      const outcome = await storage.createRun({
        session: input.sessionId === undefined ? { kind: 'new', session: newSession } : { kind: 'existing', sessionId },
        run: { runId, sessionId, subjectId: input.subject.id, userMessageId, createdAt: now, start },
        started,
        title: makeSessionTitle(text),
        lease: live.newLease(),
        ...optional('replacesRunId', input.retryOf),
        ...(leavingRunIds.length === 0 ? {} : { leavesHistory: leavingRunIds }),
        ...(complete === undefined
          ? {}
          : { idempotency: complete({ runId, sessionId, userMessageId, createdAt: now }) }),
      });
      switch (outcome.kind) {
        case 'session_not_found':
          return refuse({ code: 'NOT_FOUND', detail: 'No such session.' });
        case 'version_mismatch':
          return refuse({
            code: 'AGENT_VERSION_MISMATCH',
            detail: 'The session is pinned to another agent version.',
            details: { agentVersionId: outcome.agentVersionId },
          });
        case 'run_active':
          return refuse({
            code: 'RUN_ALREADY_ACTIVE',
            detail: 'Attach to the active run or add an input to it.',
            details: { activeRunId: outcome.activeRunId },
            extra: { activeRunId: outcome.activeRunId },
          });
        case 'not_latest_run':
          return refuse({
            code: 'RUN_NOT_RETRYABLE',
            detail: 'A later run of the session answered meanwhile; send the message again instead.',
            details: { retryOf: input.retryOf },
          });
        case 'idempotency_lost':
          throw new IdempotencyLockLostError(runId);
        case 'created':
          break;
      }
      live.produce(entry, { runId, sessionId, ...start, ...history }, 'start');
      await live.afterCreate(outcome.session);
      if (input.sessionId === undefined && options.suggestTitle !== undefined) {
        void applySuggestedTitle({
          storage,
          suggest: options.suggestTitle,
          subject: input.subject,
          sessionId,
          text,
          defaultTitle: outcome.session.title,
          onError: options.onError,
        });
      }
      return { entry, session: outcome.session };
    },
    getRun: (runId) => live.entryOf(runId),
    getSession: (sessionId) => storage.getSession(sessionId),
    listSessions: (subjectId, page) => storage.listSessions(subjectId, page),
    listMessages: (sessionId, page) => storage.listMessages(sessionId, page),
    listSessionRunIds: (sessionId) => storage.listSessionRunIds(sessionId),
    async cancelRun(runId, reason) {
      const entry = await live.entryOf(runId);
      if (entry === null) return refuse({ code: 'NOT_FOUND', detail: 'No such run.' });
      const appended = await entry.record.transact((s) =>
        s.status === 'cancelling'
          ? []
          : [{ type: 'RUN_STATUS_CHANGED', data: { status: 'cancelling', ...optional('reason', reason) } }],
      );
      const snapshot = entry.record.snapshot();
      if (entry.record.isTerminal()) return { httpStatus: 200, status: snapshot.status };
      const first = appended[0];
      if (first !== undefined) {
        live.abort(runId, reason ?? 'cancelled');
        const reaper = clock.setTimeout(() => {
          void entry.record
            .transact((s) =>
              buildForcedCancel(s, { cancelReason: reason ?? 'cancelled', newMessageId: () => ids('msg') }),
            )
            .catch((error: unknown) => options.onEngineError(error, { runId, correlationId: ids('cor') }));
        }, options.cancelGraceMs);
        unrefTimer(reaper);
        live.armCancelReaper(runId, reaper);
      }
      const eventSeq = first?.seq ?? (await findCancellingEvent(storage, runId, 0))?.seq ?? snapshot.lastSeq;
      return { httpStatus: 202, status: 'cancelling', eventSeq };
    },
    sweep: () => live.sweep(),
    reap: () => live.reap(),
    counts: () => storage.counts(),
    close: () => live.close(),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** What the log keeps of a send's focus context: its title and size, never its text. */
function summarizeFocus(focus: NonNullable<RunInput['focus']>): FocusSummary {
  return focus.title === undefined ? { chars: focus.text.length } : { title: focus.title, chars: focus.text.length };
}
