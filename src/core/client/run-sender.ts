import { pickDefined } from '../pick-defined.ts';
import type { BootstrapResponse, CreateRunRequest, CreateRunResponse } from '../protocol.ts';
import { agentFailure, isAgentError } from '../transport/agent-error.ts';
import type { AgentError } from '../transport/agent-error.ts';
import { isRetryableError } from '../transport/http-transport.ts';
import type { SendOptions } from './agent-client-types.ts';
import type { ClientContext } from './client-context.ts';
import { createClientError, toClientError } from './client-errors.ts';
import type { PendingCreateRecord } from './client-persistence.ts';
import { createIdempotencyKey } from './create-idempotency-key.ts';
import { fitFocus } from './fit-focus.ts';
import type { RunFollower } from './run-follower.ts';

/** Creates runs: one frozen `{key, body}` per user action, until a definitive answer. */
export interface RunSender {
  /**
   * Sends `text` as a new run; without `options` it reuses the latest send's. `retryOf` names the
   * failed run whose turn this answers again (docs/protocol.md §5.2).
   */
  send(text: string, options?: SendOptions, retryOf?: string): Promise<{ runId: string }>;
  /** Re-sends a failed send: the frozen key and body if its failure was not definitive, else anew. */
  retryFailed(): Promise<{ runId: string }>;
  /** After a reload: re-sends a persisted pending create; false when there was none. */
  resumePending(boot: BootstrapResponse): boolean;
  /** True from `send` until the server's answer (or the last attempt's failure). */
  isUnresolved(): boolean;
  /** True while a create may still have landed: unresolved, or failed without a definitive answer. */
  hasOpenCreate(): boolean;
  /** While a create is unresolved: resolves with its run's id once answered, or null when it failed; else null. */
  createdRunId(): Promise<string | null> | null;
  discard(): void;
}

/** How long before the key TTL ends a persisted create stops being re-sent (at most a tenth of the TTL). */
const KEY_TTL_MARGIN_MS = 60 * 60_000;

/** Creates the sender (docs/protocol.md §10 client rules); a new identity gets a new sender. */
export function createRunSender(context: ClientContext, follower: RunFollower): RunSender {
  const { store, persistence, settings } = context;
  let isCreateUnresolved = false;
  let frozen: PendingCreateRecord | null = null;
  let lastOptions: SendOptions = {};
  let created: Promise<string | null> = Promise.resolve(null);

  /** Remembers the create `pending` stands for, so a Stop pressed meanwhile can cancel its run. */
  function track(pending: Promise<{ runId: string }>): Promise<{ runId: string }> {
    created = pending.then(
      (answer) => answer.runId,
      () => null,
    );
    return pending;
  }

  async function submit(create: PendingCreateRecord): Promise<{ runId: string }> {
    frozen = create;
    isCreateUnresolved = true;
    persistence.writePendingCreate(create);
    const { clientMessageId, text, replacesRunId } = create;
    const sent = { clientMessageId, text, ...pickDefined({ replacesRunId }) };
    store.dispatch({ type: 'sendStarted', send: sent, isStreaming: follower.isStreaming() });
    try {
      const response = await context.request<CreateRunResponse>({
        method: 'POST',
        path: '/runs',
        body: create.body,
        idempotencyKey: create.key,
        attempts: settings.createAttempts,
      });
      const created = response.body;
      if (created === null || typeof created.runId !== 'string') {
        throw agentFailure('INVALID_RESPONSE', { status: response.status, requestId: response.requestId });
      }
      // The runId is known: this action never POSTs again, whatever happens to the stream.
      frozen = null;
      persistence.clearPendingCreate();
      persistence.writeActiveRun({ sessionId: created.sessionId, runId: created.runId });
      store.dispatch({ type: 'runCreated', runId: created.runId, sessionId: created.sessionId });
      follower.follow(created.runId);
      return { runId: created.runId };
    } catch (error) {
      const isDefinitive = !isAgentError(error) || !isRetryableError(error);
      if (isDefinitive || context.isDisposed()) {
        frozen = null;
        persistence.clearPendingCreate();
      }
      if (context.isDisposed()) throw createClientError('CLIENT_DISPOSED');
      store.dispatch({ type: 'sendFailed', send: sent, isStreaming: follower.isStreaming() });
      const isAlreadyActive = isAgentError(error) && error.code === 'RUN_ALREADY_ACTIVE';
      context.fail(error, {
        type: 'requestFailed',
        retryable: isAgentError(error) && (error.retryable || isAlreadyActive),
      });
      const activeRunId = isAlreadyActive ? activeRunIdOf(error as AgentError) : null;
      if (activeRunId !== null) await follower.attach(activeRunId).catch(() => undefined);
      throw error;
    } finally {
      isCreateUnresolved = false;
    }
  }

  function send(text: string, options = lastOptions, retryOf?: string): Promise<{ runId: string }> {
    if (isCreateUnresolved) return Promise.reject(createClientError('SEND_IN_PROGRESS'));
    return track(sendNow(text, options, retryOf));
  }

  async function sendNow(text: string, options: SendOptions, retryOf: string | undefined): Promise<{ runId: string }> {
    isCreateUnresolved = true;
    try {
      const boot = await context.ensureBootstrap();
      const clientMessageId = `cm_${settings.ids()}`;
      const key = createIdempotencyKey(settings.ids);
      const { sessionId, agentVersionId, extension } = store.model();
      // What is not a run option goes with the message: contextRefs, instruction, focus.
      const { modelId, reasoningEffort, limits, focus, ...extras } = options;
      const runOptions = pickDefined({ modelId, reasoningEffort, limits });
      const request: CreateRunRequest = {
        ...(sessionId === null ? {} : { sessionId }),
        // The session's version, else the option's, else the bootstrap's.
        agentVersionId: (sessionId === null ? null : agentVersionId) ?? settings.agentVersion ?? boot.agent.versionId,
        input: {
          clientMessageId,
          content: [{ type: 'text', text }],
          ...pickDefined({ ...extras, focus: focus && fitFocus(focus, boot.limits.maxFocusChars) }),
        },
        ...(Object.keys(runOptions).length === 0 ? {} : { options: runOptions }),
        // An extension's browser tools (`[]` after its runner revoked: the server takes it as none).
        ...pickDefined({ browserTools: extension?.browserTools, retryOf }),
      };
      lastOptions = options;
      return await submit({
        key,
        body: JSON.stringify(request),
        sessionId,
        createdAt: settings.clock.now(),
        clientMessageId,
        text,
        ...pickDefined({ replacesRunId: retryOf }),
      });
    } finally {
      isCreateUnresolved = false;
    }
  }

  return {
    send,
    async retryFailed() {
      if (isCreateUnresolved) throw createClientError('SEND_IN_PROGRESS');
      if (frozen !== null) return track(submit(frozen));
      const text = store.model().pendingSend?.text;
      if (text === undefined) throw createClientError('NOTHING_TO_RETRY');
      return send(text);
    },
    resumePending(boot) {
      const pending = persistence.readPendingCreate();
      if (pending === null) return false;
      const ttlMs = boot.limits.idempotencyKeyTtlSec * 1000;
      const isExpired = settings.clock.now() - pending.createdAt > ttlMs - Math.min(KEY_TTL_MARGIN_MS, ttlMs / 10);
      if (pending.sessionId !== null) store.dispatch({ type: 'sessionResumed', sessionId: pending.sessionId });
      if (isExpired) {
        persistence.clearPendingCreate();
        store.dispatch({
          type: 'sendExpired',
          send: { clientMessageId: pending.clientMessageId, text: pending.text },
          error: toClientError(createClientError('PENDING_SEND_EXPIRED', { retryable: true }), 'request'),
        });
      } else {
        track(submit(pending)).catch(() => undefined);
      }
      return true;
    },
    isUnresolved: () => isCreateUnresolved,
    createdRunId: () => (isCreateUnresolved ? created : null),
    hasOpenCreate: () => isCreateUnresolved || frozen !== null,
    discard() {
      if (isCreateUnresolved) return;
      frozen = null;
      persistence.clearPendingCreate();
      store.dispatch({ type: 'sendDiscarded' });
    },
  };
}

function activeRunIdOf(error: AgentError): string | null {
  const id = error.details.activeRunId ?? error.runId;
  return typeof id === 'string' ? id : null;
}
