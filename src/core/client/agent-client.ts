import type {
  AttachmentRef,
  BootstrapResponse,
  ResolveInterruptRequest,
  RunSnapshot,
  SessionMessagesResponse,
  SessionResource,
} from '../protocol.ts';
import { ATTACHMENT_NAME_HEADER, isTerminalRunStatus } from '../protocol.ts';
import { isAgentError } from '../transport/agent-error.ts';
import { createSystemClock } from '../clock.ts';
import { createHttpTransport } from '../transport/http-transport.ts';
import type { TransportRequest, TransportResponse } from '../transport/http-transport.ts';
import type { AgentClientHandle, AgentClientOptions, ProtocolRequest, SendOptions } from './agent-client-types.ts';
import type { ClientAction, HistoryPage } from './client-actions.ts';
import type { ClientContext, ClientSettings, FailureReport } from './client-context.ts';
import { createClientError, toClientError } from './client-errors.ts';
import { createClientPersistence } from './client-persistence.ts';
import { createClientStore } from './client-store.ts';
import { createIdempotencyKey, createRandomUuid } from './create-idempotency-key.ts';
import { createRunFollower } from './run-follower.ts';
import { createRunSender } from './run-sender.ts';
import { createTabSync } from './tab-sync.ts';

/** Uploads one client sends at once: the server's default `maxUploadsPerIdentity`. */
const UPLOADS_AT_ONCE = 2;

const MISMATCH_CODES = new Set([
  'NOT_FOUND',
  'PROTOCOL_VERSION_UNSUPPORTED',
  'INVALID_RESPONSE',
  'METHOD_NOT_ALLOWED',
  'HTTP_ERROR',
]);

/**
 * Creates the DOM-free client of one conversation (docs/protocol.md §9–§10). Nothing happens until
 * an action is called; `bootstrap()` is called implicitly by the first action that needs it.
 * State changes are delivered synchronously to subscribers as immutable snapshots.
 */
export function createAgentClient(options: AgentClientOptions): AgentClientHandle {
  const settings: ClientSettings = {
    ...options,
    ids: options.ids ?? createRandomUuid,
    clock: options.clock ?? createSystemClock(),
    random: options.random ?? Math.random,
    createAttempts: options.createAttempts ?? 8,
  };
  const store = createClientStore();
  let epoch = new AbortController();
  let isDisposed = false;
  let bootstrapping: Promise<BootstrapResponse> | null = null;
  let hasResumedPersisted = false;
  const approvals = new Map<string, Promise<void>>();
  // The server takes a few uploads at once from one person (docs/server.md, "Attachments"): the
  // files picked together go two at a time, in order, instead of some being refused.
  let uploading = 0;
  const waitingUploads: Array<() => void> = [];
  const persistence = createClientPersistence(options.storage, options.storagePrefix);
  const transport = createHttpTransport({
    ...settings,
    defaultTimeoutMs: options.requestTimeoutMs,
    getIdentity: () => store.model().bootstrap?.identity.identityId ?? null,
  });
  const context: ClientContext = {
    settings,
    store,
    persistence,
    transport,
    request,
    get,
    fail,
    isDisposed: () => isDisposed,
    ensureBootstrap,
  };
  const follower = createRunFollower(context);
  // One place sees every change of conversation (a first send, restore, newSession, a reset).
  let currentSessionId: string | null = null;
  store.subscribe(({ sessionId }) => {
    if (sessionId === currentSessionId) return;
    currentSessionId = sessionId;
    persistence.writeCurrentSession(sessionId);
    options.onSessionChange?.(sessionId);
  });
  let sender = createRunSender(context, follower);
  const tabSync = options.syncTabs
    ? createTabSync(context, { reload: loadSession, isSending: () => sender.isUnresolved() })
    : null;

  function request<T>(call: Omit<TransportRequest, 'signal'>): Promise<TransportResponse<T>> {
    return transport.request<T>({ ...call, signal: epoch.signal });
  }

  function get<T>(path: string): Promise<TransportResponse<T>> {
    return request<T>({ method: 'GET', path, attempts: 3 });
  }

  function assertAlive(): void {
    if (isDisposed) throw createClientError('CLIENT_DISPOSED');
  }

  /** Records a failure in state (resetting everything instead on IDENTITY_CHANGED) and returns it. */
  function fail(error: unknown, report: FailureReport): unknown {
    if (isDisposed) return createClientError('CLIENT_DISPOSED');
    if (isAgentError(error) && error.code === 'ABORTED' && epoch.signal.aborted) return error;
    const source = report.type === 'streamFailed' ? 'stream' : 'request';
    if (isAgentError(error) && error.code === 'IDENTITY_CHANGED') {
      dropEverything({ type: 'identityChanged', error: toClientError(error, source, true) });
      void bootstrap().catch(() => undefined);
      return error;
    }
    store.dispatch({ type: report.type, error: toClientError(error, source, report.retryable) });
    return error;
  }

  /** Records a failed request in state and rethrows it (the `.catch` of every action's request). */
  function failRequest(error: unknown): never {
    throw fail(error, { type: 'requestFailed' });
  }

  /** Aborts every request and stream of the identity, forgets its records, and resets the model with `action`. */
  function dropEverything(action: ClientAction): void {
    epoch.abort();
    epoch = new AbortController();
    follower.stop();
    sender = createRunSender(context, follower);
    bootstrapping = null;
    approvals.clear();
    persistence.clearPendingCreate();
    persistence.clearActiveRun();
    store.dispatch(action);
  }

  async function loadSession(sessionId: string): Promise<void> {
    follower.stop();
    store.dispatch({ type: 'loadStarted' });
    const path = `/sessions/${encodeURIComponent(sessionId)}`;
    const [session, page] = await Promise.all([
      get<SessionResource>(path),
      get<SessionMessagesResponse>(`${path}/messages`),
    ]);
    const activeRunId = session.body?.activeRun?.runId ?? page.body?.activeRun?.runId ?? null;
    store.dispatch({
      type: 'sessionLoaded',
      sessionId,
      agentVersionId: session.body?.agentVersionId ?? null,
      ...readHistoryPage(page.body),
      hasActiveRun: activeRunId !== null,
    });
    if (activeRunId === null) {
      persistence.clearActiveRun();
      return;
    }
    await follower.attach(activeRunId);
  }

  /** Reads the page of settled history before the oldest one shown (docs/client.md, "Older messages"). */
  async function loadOlderMessages(): Promise<void> {
    assertAlive();
    const { sessionId, olderCursor: before, isLoadingOlderMessages } = store.model();
    if (sessionId === null || before === null || isLoadingOlderMessages) return;
    store.dispatch({ type: 'olderPageRequested', before });
    const path = `/sessions/${encodeURIComponent(sessionId)}/messages?before=${encodeURIComponent(before)}`;
    await get<SessionMessagesResponse>(path).then(
      ({ body }) => {
        store.dispatch({ type: 'olderPageRead', before, page: readHistoryPage(body) });
      },
      (error: unknown) => {
        // A failure of a session left meanwhile is not this one's error.
        const isCurrent = store.model().olderCursor === before;
        store.dispatch({ type: 'olderPageRead', before, page: null });
        if (isCurrent) failRequest(error);
      },
    );
  }

  function ensureBootstrap(): Promise<BootstrapResponse> {
    const boot = store.model().bootstrap;
    return boot === null ? (bootstrapping ?? bootstrap()) : Promise.resolve(boot);
  }

  async function bootstrap(): Promise<BootstrapResponse> {
    assertAlive();
    const pending = (async () => {
      let boot: BootstrapResponse;
      try {
        boot = (await get<BootstrapResponse>('/bootstrap')).body as BootstrapResponse;
        if (!isProtocolV1(boot)) throw createClientError('PROTOCOL_MISMATCH');
      } catch (error) {
        const mismatch =
          isAgentError(error) && MISMATCH_CODES.has(error.code) ? createClientError('PROTOCOL_MISMATCH') : error;
        throw fail(mismatch, { type: 'bootstrapFailed' });
      }
      store.dispatch({ type: 'bootstrapped', bootstrap: boot });
      if (!hasResumedPersisted && options.storage !== undefined) {
        hasResumedPersisted = true;
        const sessionId = persistence.readActiveRun()?.sessionId ?? persistence.readCurrentSession();
        if (!sender.resumePending(boot) && sessionId !== null) {
          // A conversation deleted meanwhile (404) is forgotten quietly: the tab starts a new one.
          void loadSession(sessionId).catch((error: unknown) => {
            if (!isAgentError(error) || error.code !== 'NOT_FOUND') return fail(error, { type: 'requestFailed' });
            persistence.writeCurrentSession(null);
            persistence.clearActiveRun();
            store.dispatch({ type: 'sessionCleared' });
          });
        }
      }
      return boot;
    })();
    bootstrapping = pending;
    try {
      return await pending;
    } finally {
      if (bootstrapping === pending) bootstrapping = null;
    }
  }

  function activeRun(): RunSnapshot {
    const { followedRunId } = store.model();
    const run = followedRunId === null ? undefined : store.getRun(followedRunId);
    if (run === undefined || isTerminalRunStatus(run.status)) throw createClientError('RUN_NOT_ACTIVE');
    return run;
  }

  async function approve(interruptId: string, decision: 'allow' | 'deny'): Promise<void> {
    assertAlive();
    const existing = approvals.get(interruptId);
    if (existing !== undefined) return existing;
    const run = store.model().runs.find((r) => r.interrupts.some((i) => i.id === interruptId && i.state === 'open'));
    const interrupt = run?.interrupts.find((i) => i.id === interruptId);
    if (run === undefined || interrupt === undefined) {
      throw createClientError('INTERRUPT_UNKNOWN');
    }
    const body: ResolveInterruptRequest = { decision, argsDigest: interrupt.argsDigest ?? '' };
    store.dispatch({ type: 'approvalSubmitted', interruptId });
    const pending = request({
      method: 'POST',
      path: `/runs/${encodeURIComponent(run.runId)}/interrupts/${encodeURIComponent(interruptId)}`,
      body: JSON.stringify(body),
      attempts: 4,
    })
      .then(
        () => undefined,
        (error: unknown) => {
          store.dispatch({ type: 'approvalFailed', interruptId });
          failRequest(error);
        },
      )
      .finally(() => approvals.delete(interruptId));
    approvals.set(interruptId, pending);
    return pending;
  }

  async function postToRun(path: string, body: string, idempotencyKey?: string): Promise<void> {
    await request({ method: 'POST', path, body, idempotencyKey, attempts: settings.createAttempts }).catch(failRequest);
  }

  /**
   * Shows the stop at once; while the run's create is unanswered it waits for the run's id and
   * cancels that run as soon as it is known (nothing to cancel when the create failed).
   */
  async function cancel(): Promise<void> {
    assertAlive();
    const created = sender.createdRunId();
    let runId: string | null;
    if (created === null) {
      runId = activeRun().runId;
      store.dispatch({ type: 'stopRequested', runId });
    } else {
      store.dispatch({ type: 'stopRequested', runId: null });
      runId = await created;
      if (runId === null || isDisposed) return;
    }
    const path = `/runs/${encodeURIComponent(runId)}/cancel`;
    await request({ method: 'POST', path, body: '{}', attempts: settings.createAttempts }).catch((error: unknown) => {
      store.dispatch({ type: 'stopFailed' });
      failRequest(error);
    });
  }

  async function switchSession(sessionId: string): Promise<void> {
    assertAlive();
    if (sender.hasOpenCreate()) throw createClientError('SEND_IN_PROGRESS');
    await ensureBootstrap();
    await loadSession(sessionId).catch(failRequest);
  }

  async function retry(): Promise<void> {
    assertAlive();
    const { pendingSend, error, followedRunId, bootstrap: boot } = store.model();
    if (sender.isUnresolved()) throw createClientError('SEND_IN_PROGRESS');
    if (pendingSend?.status === 'failed') {
      await sender.retryFailed();
    } else if (boot === null) {
      await bootstrap();
    } else if (error?.source === 'stream' && followedRunId !== null) {
      store.dispatch({ type: 'streamRetried' });
      follower.follow(followedRunId);
    } else if (error?.source === 'run' && error.retryable && error.runId !== undefined) {
      // The same turn again: the failed run's answer makes way, its user message is not repeated.
      const text = store.getRun(error.runId)?.messages.find((m) => m.role === 'user')?.content ?? '';
      await sender.send(text, undefined, error.runId);
    } else {
      throw createClientError('NOTHING_TO_RETRY');
    }
  }

  return {
    bootstrap,
    async send(text: string, sendOptions: SendOptions = {}) {
      assertAlive();
      return sender.send(text, sendOptions);
    },
    cancel,
    approve,
    async addInput(text) {
      assertAlive();
      const path = `/runs/${encodeURIComponent(activeRun().runId)}/inputs`;
      await postToRun(
        path,
        JSON.stringify({ clientMessageId: `cm_${settings.ids()}`, content: [{ type: 'text', text }] }),
        createIdempotencyKey(settings.ids),
      );
    },
    async sendFeedback(runId, messageId, feedback) {
      assertAlive();
      await postToRun(`/runs/${encodeURIComponent(runId)}/feedback`, JSON.stringify({ messageId, ...feedback }));
      store.dispatch({ type: 'feedbackKept', messageId, feedback });
    },
    async uploadAttachment(file, { name, signal }) {
      assertAlive();
      await ensureBootstrap();
      // A turn passes from one upload to the next in line without ever being free.
      if (uploading < UPLOADS_AT_ONCE) uploading += 1;
      else await new Promise<void>((resolve) => waitingUploads.push(resolve));
      try {
        const { body } = await transport.request<AttachmentRef>({
          method: 'POST',
          path: '/attachments',
          body: file,
          headers: { [ATTACHMENT_NAME_HEADER]: encodeURIComponent(name) },
          signal,
          // A large file on a slow network takes what it takes; the caller's signal cancels it.
          timeoutMs: 0,
        });
        return body as AttachmentRef;
      } finally {
        const next = waitingUploads.shift();
        if (next) next();
        else uploading -= 1;
      }
    },
    restore: switchSession,
    switchSession,
    loadOlderMessages,
    async connect(runId) {
      assertAlive();
      await ensureBootstrap();
      await follower.attach(runId).catch(failRequest);
    },
    newSession() {
      assertAlive();
      if (sender.isUnresolved()) throw createClientError('SEND_IN_PROGRESS');
      sender.discard();
      follower.stop();
      persistence.clearActiveRun();
      store.dispatch({ type: 'sessionCleared' });
    },
    retry,
    subscribe: (listener) => (isDisposed ? () => undefined : store.subscribe(listener)),
    getState: () => store.getState(),
    resetIdentity() {
      if (!isDisposed) dropEverything({ type: 'reset' });
    },
    setVisibility(visible) {
      if (isDisposed) return;
      follower.setHostSignals({ isVisible: visible });
      if (visible) tabSync?.onVisible();
    },
    setOnline(online) {
      if (!isDisposed) follower.setHostSignals({ isOnline: online });
    },
    discardPendingSend() {
      if (!isDisposed) sender.discard();
    },
    request: <T>(call: ProtocolRequest) =>
      request<T>(call).catch((error: unknown) => {
        throw isAgentError(error) && error.code === 'IDENTITY_CHANGED' ? fail(error, { type: 'requestFailed' }) : error;
      }),
    extend(extension) {
      store.dispatch({ type: 'extended', extension });
    },
    dispose() {
      if (isDisposed) return;
      isDisposed = true;
      epoch.abort();
      follower.stop();
      tabSync?.dispose();
      store.clearListeners();
    },
  };
}

function isProtocolV1(boot: BootstrapResponse | null): boolean {
  const supported: unknown = boot?.protocol?.supported;
  return (
    Array.isArray(supported) &&
    supported.includes('1') &&
    typeof boot?.identity?.identityId === 'string' &&
    typeof boot.agent?.versionId === 'string'
  );
}

/** A page of settled history as the model keeps it (the wire gives it newest first; the transcript reads oldest first). */
function readHistoryPage(body: SessionMessagesResponse | null | undefined): HistoryPage {
  return {
    history: (body?.items ?? []).toReversed(),
    historyToolCalls: body?.toolCalls ?? [],
    historyInterrupts: body?.interrupts ?? [],
    olderCursor: body?.nextBefore ?? null,
  };
}
