import type {
  AddInputRequest,
  BootstrapResponse,
  CreateRunRequest,
  CreateRunResponse,
  EventEnvelope,
  ResolveInterruptRequest,
  RunResource,
  RunSnapshot,
  SessionMessagesResponse,
  SessionResource,
} from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { createEmptyRunSnapshot, reduceRun } from '../state/run-reducer.ts';
import { AgentError, isAgentError } from '../transport/agent-error.ts';
import { createSystemClock } from '../transport/clock.ts';
import type { TransportClock } from '../transport/clock.ts';
import { createHttpTransport, isRetryableError } from '../transport/http-transport.ts';
import type { AgentClient, SendOptions } from './agent-client-types.ts';
import { createClientError, runErrorOf, toClientError } from './client-errors.ts';
import { createClientPersistence } from './client-persistence.ts';
import type { ClientStorage, PendingCreateRecord } from './client-persistence.ts';
import { createInitialClientModel, createClientStore } from './client-store.ts';
import type { ClientModel } from './client-store.ts';
import type { ClientError } from './client-state.ts';
import { createIdempotencyKey, createRandomUuid } from './create-idempotency-key.ts';
import { runResumeLoop } from './resume-loop.ts';

/** Options of {@link createAgentClient}; everything but `endpoint` has a default. */
export interface AgentClientOptions {
  /** The base the protocol lives under, e.g. `'/api/agent'` (the client adds `/v1/…`). */
  endpoint: string;
  fetch?: typeof fetch;
  clock?: TransportClock;
  /** Id source for client message ids and idempotency keys (default `crypto.randomUUID`). */
  ids?: () => string;
  /** Uniform [0, 1) source for backoff jitter. */
  random?: () => number;
  /** Opt-in persistence (e.g. `sessionStorage`): the pending create and the active run survive a reload. */
  storage?: ClientStorage;
  storagePrefix?: string;
  /** Pins new sessions to this agent version instead of the bootstrap's. */
  agentVersion?: string;
  /** Initial host signals (default visible and online). */
  visibility?: boolean;
  online?: boolean;
  credentials?: RequestCredentials;
  /** Stream watchdog in ms (default `bootstrap.stream.clientIdleTimeoutSec`). */
  idleTimeoutMs?: number;
  /** Attempts of a create (same key and body each time) before the send is shown as failed (default 8). */
  createAttempts?: number;
  /** Per-request timeout in ms (default the transport's 30 s). */
  requestTimeoutMs?: number;
  backoff?: { baseMs?: number; capMs?: number };
  /** Observes every event the client applies, once each, in order (logging, tests). */
  onEvent?: (event: EventEnvelope) => void;
}

/** An `AgentClient` plus the additions this implementation offers. */
export interface AgentClientHandle extends AgentClient {
  /** Drops a failed send's text and its frozen key (the user cleared the composer). */
  discardPendingSend(): void;
}

const KEY_TTL_MARGIN_MS = 60 * 60_000;

/**
 * Creates the DOM-free client of one conversation (PROTOCOL §3.9–3.10). Nothing happens until
 * an action is called; `bootstrap()` is called implicitly by the first action that needs it.
 * State changes are delivered synchronously to subscribers as immutable snapshots.
 */
export function createAgentClient(options: AgentClientOptions): AgentClientHandle {
  const clock = options.clock ?? createSystemClock();
  const random = options.random ?? Math.random;
  const ids = options.ids ?? createDefaultIds();
  const persistence = createClientPersistence(options.storage, options.storagePrefix);
  const store = createClientStore();
  const transport = createHttpTransport({
    endpoint: options.endpoint,
    fetch: options.fetch,
    clock,
    random,
    credentials: options.credentials,
    backoff: options.backoff,
    defaultTimeoutMs: options.requestTimeoutMs,
    getIdentity: () => store.model().bootstrap?.identity.identityId ?? null,
  });
  let epoch = new AbortController();
  let isDisposed = false;
  let isVisible = options.visibility ?? true;
  let isOnline = options.online ?? true;
  let bootstrapping: Promise<BootstrapResponse> | null = null;
  let bootstrapError: ClientError | null = null;
  let hasResumedPersisted = false;
  let isCreateUnresolved = false;
  let frozenCreate: (PendingCreateRecord & { clientMessageId: string; text: string }) | null = null;
  let lastSendOptions: SendOptions = {};
  let sessionAgentVersionId: string | null = null;
  let follower: AbortController | null = null;
  const approvals = new Map<string, Promise<void>>();

  function assertAlive(): void {
    if (isDisposed) throw createClientError('CLIENT_DISPOSED', 'This chat client was disposed.');
  }

  /** Records a failure in state (resetting everything first on IDENTITY_CHANGED) and returns it. */
  function fail(error: unknown, source: 'request' | 'stream', retryable?: boolean, change: Partial<ClientModel> = {}): unknown {
    if (isDisposed) return createClientError('CLIENT_DISPOSED', 'This chat client was disposed.');
    if (isAgentError(error) && error.code === 'ABORTED' && epoch.signal.aborted) return error;
    if (isAgentError(error) && error.code === 'IDENTITY_CHANGED') {
      dropEverything();
      store.update({ error: toClientError(error, source, true) });
      void bootstrap().catch(() => undefined);
      return error;
    }
    store.update({ ...change, error: toClientError(error, source, retryable) });
    return error;
  }

  function dropEverything(): void {
    epoch.abort(new Error('identity reset'));
    epoch = new AbortController();
    stopFollowing();
    frozenCreate = null;
    isCreateUnresolved = false;
    bootstrapping = null;
    sessionAgentVersionId = null;
    approvals.clear();
    persistence.clearPendingCreate();
    persistence.clearActiveRun();
    store.update(createInitialClientModel());
  }

  // ─── following runs ──────────────────────────────────────────────────────────────────────

  function stopFollowing(): void {
    follower?.abort(new Error('stop following'));
    follower = null;
  }

  function applyEvent(event: EventEnvelope): void {
    const run = store.getRun(event.runId) ?? createEmptyRunSnapshot(event.runId, event.sessionId);
    const next = reduceRun(run, event);
    if (next === run) return;
    options.onEvent?.(event);
    const { optimistic } = store.model();
    const isEchoed = optimistic !== null && next.messages.some((m) => m.clientMessageId === optimistic.clientMessageId);
    const runError = next.error !== null && run.error === null ? runErrorOf(next) : null;
    store.putRun(next, {
      ...(isEchoed ? { optimistic: null } : {}),
      ...(runError === null ? {} : { error: runError }),
    });
    if (isTerminalRunStatus(next.status)) persistence.clearActiveRun();
  }

  function follow(runId: string): void {
    stopFollowing();
    store.update({ followedRunId: runId });
    const run = store.getRun(runId);
    if (run === undefined || isTerminalRunStatus(run.status)) {
      store.update({ connection: 'idle' });
      return;
    }
    if (!isOnline || !isVisible) {
      store.update({ connection: isOnline ? 'idle' : 'offline' });
      return;
    }
    const controller = new AbortController();
    follower = controller;
    const boot = store.model().bootstrap;
    runResumeLoop({
      transport,
      runId,
      start: { lastSeq: run.lastSeq, cursor: run.resumeCursor },
      onEvent: applyEvent,
      onSnapshot: (resource) => store.putRun(fromRunResource(resource)),
      onPhase: (phase) => store.update({ connection: phase }),
      idleTimeoutMs: options.idleTimeoutMs ?? (boot?.stream.clientIdleTimeoutSec ?? 45) * 1000,
      clock,
      random,
      backoff: options.backoff,
      signal: controller.signal,
    }).then(
      () => {
        if (follower !== controller) return;
        follower = null;
        persistence.clearActiveRun();
        store.update({ connection: 'idle' });
      },
      (error: unknown) => {
        if (controller.signal.aborted || follower !== controller) return;
        follower = null;
        fail(error, 'stream', undefined, { connection: 'error' });
      },
    );
  }

  async function loadRun(runId: string): Promise<RunSnapshot> {
    const response = await transport.request<RunResource>({ method: 'GET', path: `/runs/${encodeURIComponent(runId)}`, retry: { maxAttempts: 3 }, signal: epoch.signal });
    if (response.body === null) throw new AgentError({ code: 'INVALID_RESPONSE', message: 'The run snapshot was empty.', requestId: response.requestId });
    return fromRunResource(response.body);
  }

  async function attach(runId: string): Promise<void> {
    store.update({ connection: 'connecting' });
    const snapshot = await loadRun(runId);
    if (snapshot.sessionId !== store.model().sessionId) {
      store.update({ sessionId: snapshot.sessionId, history: [], runs: [], optimistic: null });
    }
    const runError = runErrorOf(snapshot);
    store.putRun(snapshot, runError === null ? {} : { error: runError });
    if (!isTerminalRunStatus(snapshot.status)) persistence.writeActiveRun({ sessionId: snapshot.sessionId, runId });
    follow(runId);
  }

  // ─── creating runs ───────────────────────────────────────────────────────────────────────

  async function submitCreate(create: NonNullable<typeof frozenCreate>): Promise<{ runId: string }> {
    frozenCreate = create;
    isCreateUnresolved = true;
    persistence.writePendingCreate({ key: create.key, body: create.body, sessionId: create.sessionId, createdAt: create.createdAt });
    store.update({
      pendingSend: { clientMessageId: create.clientMessageId, text: create.text, status: 'sending' },
      optimistic: { messageId: create.clientMessageId, clientMessageId: create.clientMessageId, role: 'user', content: create.text, status: 'complete' },
      error: null,
      ...(follower === null ? { connection: 'connecting' as const } : {}),
    });
    try {
      const response = await transport.request<CreateRunResponse>({
        method: 'POST',
        path: '/runs',
        body: create.body,
        idempotencyKey: create.key,
        retry: { maxAttempts: options.createAttempts ?? 8 },
        signal: epoch.signal,
      });
      const created = response.body;
      if (created === null || typeof created.runId !== 'string') {
        throw new AgentError({ code: 'INVALID_RESPONSE', message: 'The server did not return a run.', status: response.status, requestId: response.requestId });
      }
      // The runId is known: this action never POSTs again, whatever happens to the stream.
      frozenCreate = null;
      persistence.clearPendingCreate();
      persistence.writeActiveRun({ sessionId: created.sessionId, runId: created.runId });
      if (created.sessionId !== store.model().sessionId) store.update({ sessionId: created.sessionId, history: [], runs: [] });
      if (store.getRun(created.runId) === undefined) store.putRun(createEmptyRunSnapshot(created.runId, created.sessionId));
      store.update({ pendingSend: null });
      follow(created.runId);
      return { runId: created.runId };
    } catch (error) {
      const isDefinitive = !isAgentError(error) || !isRetryableError(error);
      if (isDefinitive || isDisposed) {
        frozenCreate = null;
        persistence.clearPendingCreate();
      }
      if (isDisposed) throw createClientError('CLIENT_DISPOSED', 'This chat client was disposed.');
      const { optimistic } = store.model();
      store.update({
        pendingSend: { clientMessageId: create.clientMessageId, text: create.text, status: 'failed' },
        optimistic: optimistic === null ? null : { ...optimistic, status: 'error' },
        ...(follower === null ? { connection: 'idle' as const } : {}),
      });
      fail(error, 'request', isAgentError(error) && (error.retryable || error.code === 'RUN_ALREADY_ACTIVE'));
      const activeRunId = isAgentError(error) && error.code === 'RUN_ALREADY_ACTIVE' ? activeRunIdOf(error) : null;
      if (activeRunId !== null) await attach(activeRunId).catch(() => undefined);
      throw error;
    } finally {
      isCreateUnresolved = false;
    }
  }

  async function send(text: string, sendOptions: SendOptions = {}): Promise<{ runId: string }> {
    assertAlive();
    if (isCreateUnresolved) throw createClientError('SEND_IN_PROGRESS', 'A message is still being sent.');
    isCreateUnresolved = true;
    try {
      const boot = await ensureBootstrap();
      const clientMessageId = `cm_${ids()}`;
      const key = createIdempotencyKey(ids);
      const { sessionId } = store.model();
      const request: CreateRunRequest = {
        ...(sessionId === null ? {} : { sessionId }),
        agentVersionId: (sessionId === null ? null : sessionAgentVersionId) ?? options.agentVersion ?? boot.agent.versionId,
        input: {
          clientMessageId,
          content: [{ type: 'text', text }],
          ...(sendOptions.contextRefs === undefined ? {} : { contextRefs: sendOptions.contextRefs }),
        },
        ...(hasRunOptions(sendOptions) ? { options: runOptionsOf(sendOptions) } : {}),
      };
      lastSendOptions = sendOptions;
      return await submitCreate({ key, body: JSON.stringify(request), sessionId, createdAt: clock.now(), clientMessageId, text });
    } finally {
      isCreateUnresolved = false;
    }
  }

  /** After a reload: re-sends a pending create byte-identical, or reconnects to the active run. */
  async function resumePersisted(boot: BootstrapResponse): Promise<void> {
    const pending = persistence.readPendingCreate();
    if (pending !== null) {
      const input = inputOf(pending.body);
      const ttlMs = boot.limits.idempotencyKeyTtlSec * 1000;
      const isExpired = clock.now() - pending.createdAt > ttlMs - Math.min(KEY_TTL_MARGIN_MS, ttlMs / 10);
      if (pending.sessionId !== null) store.update({ sessionId: pending.sessionId });
      if (isExpired || input === null) {
        persistence.clearPendingCreate();
        store.update({
          pendingSend: input === null ? null : { clientMessageId: input.clientMessageId, text: input.text, status: 'failed' },
          error: toClientError(createClientError('PENDING_SEND_EXPIRED', 'A message from before the reload was not confirmed in time; send it again?', true), 'request'),
        });
        return;
      }
      await submitCreate({ ...pending, ...input }).then(() => undefined, () => undefined);
      return;
    }
    const active = persistence.readActiveRun();
    if (active !== null) await loadSession(active.sessionId).catch((error: unknown) => fail(error, 'request'));
  }

  // ─── sessions ────────────────────────────────────────────────────────────────────────────

  async function loadSession(sessionId: string): Promise<void> {
    stopFollowing();
    store.update({ connection: 'connecting' });
    const path = `/sessions/${encodeURIComponent(sessionId)}`;
    const [session, page] = await Promise.all([
      transport.request<SessionResource>({ method: 'GET', path, retry: { maxAttempts: 3 }, signal: epoch.signal }),
      transport.request<SessionMessagesResponse>({ method: 'GET', path: `${path}/messages`, retry: { maxAttempts: 3 }, signal: epoch.signal }),
    ]);
    sessionAgentVersionId = session.body?.agentVersionId ?? null;
    store.update({
      sessionId,
      history: (page.body?.items ?? []).slice().reverse(),
      runs: [],
      followedRunId: null,
      optimistic: null,
      pendingSend: null,
      error: null,
    });
    const activeRunId = session.body?.activeRun?.runId ?? page.body?.activeRun?.runId ?? null;
    if (activeRunId === null) {
      persistence.clearActiveRun();
      store.update({ connection: 'idle' });
      return;
    }
    await attach(activeRunId);
  }

  async function ensureBootstrap(): Promise<BootstrapResponse> {
    return store.model().bootstrap ?? bootstrapping ?? bootstrap();
  }

  async function bootstrap(): Promise<BootstrapResponse> {
    assertAlive();
    const signal = epoch.signal;
    const pending = (async () => {
      let boot: BootstrapResponse;
      try {
        const response = await transport.request<BootstrapResponse>({ method: 'GET', path: '/bootstrap', retry: { maxAttempts: 3 }, signal });
        boot = response.body as BootstrapResponse;
        if (!isProtocolV1(boot)) throw createClientError('PROTOCOL_MISMATCH', 'The endpoint is not an agent-chat protocol v1 server.');
      } catch (error) {
        const mismatch = isAgentError(error) && MISMATCH_CODES.has(error.code)
          ? createClientError('PROTOCOL_MISMATCH', 'The endpoint is not an agent-chat protocol v1 server.')
          : error;
        const failure = fail(mismatch, 'request', undefined, { connection: 'error' });
        bootstrapError = store.model().error;
        throw failure;
      }
      // A new bootstrap clears only its own earlier failure, not e.g. the IDENTITY_CHANGED that caused it.
      const isOwnError = bootstrapError !== null && store.model().error === bootstrapError;
      bootstrapError = null;
      store.update({ bootstrap: boot, ...(isOwnError ? { error: null, connection: 'idle' as const } : {}) });
      if (!hasResumedPersisted && options.storage !== undefined) {
        hasResumedPersisted = true;
        void resumePersisted(boot);
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

  // ─── run actions ─────────────────────────────────────────────────────────────────────────

  function activeRun(): RunSnapshot {
    const { followedRunId } = store.model();
    const run = followedRunId === null ? undefined : store.getRun(followedRunId);
    if (run === undefined || isTerminalRunStatus(run.status)) throw createClientError('RUN_NOT_ACTIVE', 'There is no active run.');
    return run;
  }

  async function approve(interruptId: string, decision: 'allow' | 'deny'): Promise<void> {
    assertAlive();
    const existing = approvals.get(interruptId);
    if (existing !== undefined) return existing;
    const run = store.model().runs.find((r) => r.interrupts.some((i) => i.id === interruptId && i.state === 'open'));
    const interrupt = run?.interrupts.find((i) => i.id === interruptId);
    if (run === undefined || interrupt === undefined) {
      throw createClientError('INTERRUPT_UNKNOWN', `No open interrupt ${interruptId} in this conversation.`);
    }
    const body: ResolveInterruptRequest = { decision, argsDigest: interrupt.argsDigest ?? '' };
    store.update({ submittingInterruptIds: [...store.model().submittingInterruptIds, interruptId] });
    const pending = transport
      .request({
        method: 'POST',
        path: `/runs/${encodeURIComponent(run.runId)}/interrupts/${encodeURIComponent(interruptId)}`,
        body: JSON.stringify(body),
        retry: { maxAttempts: 4 },
        signal: epoch.signal,
      })
      .then(
        () => undefined,
        (error: unknown) => {
          store.update({ submittingInterruptIds: store.model().submittingInterruptIds.filter((id) => id !== interruptId) });
          throw fail(error, 'request');
        },
      )
      .finally(() => approvals.delete(interruptId));
    approvals.set(interruptId, pending);
    return pending;
  }

  async function cancel(): Promise<void> {
    assertAlive();
    const run = activeRun();
    await transport
      .request({ method: 'POST', path: `/runs/${encodeURIComponent(run.runId)}/cancel`, body: '{}', retry: { maxAttempts: 4 }, signal: epoch.signal })
      .catch((error: unknown) => {
        throw fail(error, 'request');
      });
  }

  async function addInput(text: string): Promise<void> {
    assertAlive();
    const run = activeRun();
    const body: AddInputRequest = { clientMessageId: `cm_${ids()}`, content: [{ type: 'text', text }] };
    await transport
      .request({
        method: 'POST',
        path: `/runs/${encodeURIComponent(run.runId)}/inputs`,
        body: JSON.stringify(body),
        idempotencyKey: createIdempotencyKey(ids),
        retry: { maxAttempts: options.createAttempts ?? 8 },
        signal: epoch.signal,
      })
      .catch((error: unknown) => {
        throw fail(error, 'request');
      });
  }

  async function retry(): Promise<void> {
    assertAlive();
    if (isCreateUnresolved) throw createClientError('SEND_IN_PROGRESS', 'A message is still being sent.');
    const model = store.model();
    if (model.pendingSend?.status === 'failed') {
      if (frozenCreate !== null) await submitCreate(frozenCreate);
      else await send(model.pendingSend.text, lastSendOptions);
      return;
    }
    const { error, followedRunId } = model;
    if (model.bootstrap === null) {
      await bootstrap();
      return;
    }
    if (error?.source === 'stream' && followedRunId !== null) {
      store.update({ error: null });
      follow(followedRunId);
      return;
    }
    if (error?.source === 'run' && error.retryable && error.runId !== undefined) {
      const text = store.getRun(error.runId)?.messages.find((m) => m.role === 'user')?.content;
      if (text !== undefined) {
        await send(text, lastSendOptions);
        return;
      }
    }
    throw createClientError('NOTHING_TO_RETRY', 'There is no failed action to retry.');
  }

  return {
    bootstrap,
    send,
    cancel,
    approve,
    addInput,
    async restore(sessionId) {
      assertAlive();
      if (isCreateUnresolved || frozenCreate !== null) {
        throw createClientError('SEND_IN_PROGRESS', 'A message is still being sent; the session cannot change until it is answered.');
      }
      await ensureBootstrap();
      await loadSession(sessionId).catch((error: unknown) => {
        throw fail(error, 'request');
      });
    },
    async connect(runId) {
      assertAlive();
      await ensureBootstrap();
      await attach(runId).catch((error: unknown) => {
        throw fail(error, 'request');
      });
    },
    retry,
    subscribe: (listener) => (isDisposed ? () => undefined : store.subscribe(listener)),
    getState: () => store.getState(),
    resetIdentity() {
      if (!isDisposed) dropEverything();
    },
    setVisibility(visible) {
      if (isDisposed || visible === isVisible) return;
      isVisible = visible;
      refollow();
    },
    setOnline(online) {
      if (isDisposed || online === isOnline) return;
      isOnline = online;
      refollow();
    },
    discardPendingSend() {
      if (isDisposed || isCreateUnresolved) return;
      frozenCreate = null;
      persistence.clearPendingCreate();
      store.update({ pendingSend: null, optimistic: null });
    },
    dispose() {
      if (isDisposed) return;
      isDisposed = true;
      epoch.abort(new Error('disposed'));
      stopFollowing();
      store.clearListeners();
    },
  };

  /** Closes or reopens the stream after a host signal; the cursor makes reopening free. */
  function refollow(): void {
    const { followedRunId } = store.model();
    if (followedRunId === null) {
      store.update({ connection: isOnline ? 'idle' : 'offline' });
      return;
    }
    follow(followedRunId);
  }
}

/** Random UUIDv4s from the platform's CSPRNG (never from the jitter source, which tests pin). */
function createDefaultIds(): () => string {
  const randomUuid = globalThis.crypto?.randomUUID?.bind(globalThis.crypto);
  return randomUuid === undefined ? () => createRandomUuid(Math.random) : () => randomUuid();
}

const MISMATCH_CODES = new Set(['NOT_FOUND', 'PROTOCOL_VERSION_UNSUPPORTED', 'INVALID_RESPONSE', 'METHOD_NOT_ALLOWED', 'HTTP_ERROR']);

function isProtocolV1(boot: BootstrapResponse | null): boolean {
  if (boot === null || typeof boot !== 'object') return false;
  const supported = boot.protocol?.supported;
  return Array.isArray(supported) && supported.includes('1') && typeof boot.identity?.identityId === 'string' && typeof boot.agent?.versionId === 'string';
}

function fromRunResource(resource: RunResource): RunSnapshot {
  return { ...resource, createdAt: toEpochMs(resource.createdAt), updatedAt: toEpochMs(resource.updatedAt) };
}

function toEpochMs(value: unknown): number | null {
  if (typeof value === 'number') return value;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? null : ms;
}

function activeRunIdOf(error: AgentError): string | null {
  const id = error.details.activeRunId ?? error.runId;
  return typeof id === 'string' ? id : null;
}

function hasRunOptions(options: SendOptions): boolean {
  return options.modelId !== undefined || options.reasoningEffort !== undefined || options.limits !== undefined;
}

function runOptionsOf(options: SendOptions): NonNullable<CreateRunRequest['options']> {
  return {
    ...(options.modelId === undefined ? {} : { modelId: options.modelId }),
    ...(options.reasoningEffort === undefined ? {} : { reasoningEffort: options.reasoningEffort }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  };
}

function inputOf(body: string): { clientMessageId: string; text: string } | null {
  try {
    const request = JSON.parse(body) as CreateRunRequest;
    const text = request.input.content.map((part) => part.text).join('');
    return { clientMessageId: request.input.clientMessageId ?? '', text };
  } catch {
    return null;
  }
}
