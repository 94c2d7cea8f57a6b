import type { SessionListResponse, SessionResource } from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { isAgentError } from '../transport/agent-error.ts';
import type { AgentClientHandle } from './agent-client-types.ts';
import { toClientError } from './client-errors.ts';
import type { ConversationsAction, ConversationsState } from './conversations-reducer.ts';
import { createInitialConversationsState, reduceConversations } from './conversations-reducer.ts';

/** Options of {@link createConversations}. */
export interface ConversationsOptions {
  /**
   * The conversation client whose sessions these are: its `sessionId` is the current one, and its
   * `request` sends every call (the same endpoint, headers, credentials and identity).
   */
  client: AgentClientHandle;
}

/**
 * The user's conversations beside one {@link AgentClientHandle} (docs/client.md, "Conversations"):
 * list, rename, delete, switch and start new. Every call resolves once the server answered and
 * rejects with an `AgentError` (also kept in `state.error`) otherwise.
 */
export interface Conversations {
  /**
   * `GET /sessions`: the first page (replacing the list), or with `isNextPage` the next one. Once
   * listed, the first page is read again when another conversation comes on screen or its run ends.
   */
  listSessions(options?: { isNextPage?: boolean; limit?: number }): Promise<void>;
  /** `PATCH /sessions/{id}`: renames; the listed item is replaced with the server's answer. */
  renameSession(sessionId: string, title: string): Promise<SessionResource>;
  /**
   * `DELETE /sessions/{id}` (a session already gone counts as deleted). Deleting the conversation
   * on screen starts a new one. A session with an active run is refused (`RUN_ALREADY_ACTIVE`).
   */
  deleteSession(sessionId: string): Promise<void>;
  /** Shows another conversation: its history, and its active run streaming again. */
  switchSession(sessionId: string): Promise<void>;
  /** Starts a new conversation (the current one stays on the server). */
  newSession(): void;
  getState(): ConversationsState;
  /** Called with the new state after every change. */
  subscribe(listener: (state: ConversationsState) => void): () => void;
  /** Stops following the client; later calls still work but notify no one. */
  dispose(): void;
}

/** Creates the conversations of `options.client`, sending their requests through `client.request`. */
export function createConversations(options: ConversationsOptions): Conversations {
  const { client } = options;
  let state = createInitialConversationsState(client.getState().sessionId);
  const listeners = new Set<(state: ConversationsState) => void>();
  const dispatch = (action: ConversationsAction): void => {
    const next = reduceConversations(state, action);
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener(state);
  };
  // Once listed, the list follows the client: it is read again when another conversation comes on
  // screen (a first send made one, a switch, a new one) or the run on screen ends.
  let seen = client.getState();
  const unsubscribe = client.subscribe((next) => {
    const previous = seen;
    seen = next;
    dispatch({ type: 'currentChanged', sessionId: next.sessionId });
    const hasRunEnded =
      previous.run !== null &&
      !isTerminalRunStatus(previous.run.status) &&
      next.run?.runId === previous.run.runId &&
      isTerminalRunStatus(next.run.status);
    if (state.isLoaded && (hasRunEnded || previous.sessionId !== next.sessionId)) {
      void list(false).catch(() => undefined);
    }
  });
  const failed = (error: unknown): never => {
    dispatch({ type: 'failed', error: toClientError(error, 'request') });
    throw error;
  };
  const sessionPath = (sessionId: string): string => `/sessions/${encodeURIComponent(sessionId)}`;

  async function list(isNextPage: boolean, limit?: number): Promise<void> {
    if (isNextPage && state.nextAfter === null) return;
    await client.bootstrap().catch(failed);
    dispatch({ type: 'listStarted' });
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (isNextPage && state.nextAfter !== null) query.set('after', state.nextAfter);
    const search = query.toString();
    const response = await client
      .request<SessionListResponse>({
        method: 'GET',
        path: `/sessions${search === '' ? '' : `?${search}`}`,
        attempts: 3,
      })
      .catch(failed);
    dispatch({ type: 'listed', page: response.body ?? { items: [], nextAfter: null }, isNextPage });
  }

  return {
    listSessions: ({ isNextPage = false, limit } = {}) => list(isNextPage, limit),
    async renameSession(sessionId, title) {
      const response = await client
        .request<SessionResource>({
          method: 'PATCH',
          path: sessionPath(sessionId),
          body: JSON.stringify({ title }),
          attempts: 3,
        })
        .catch(failed);
      const session = response.body as SessionResource;
      dispatch({ type: 'renamed', session });
      return session;
    },
    async deleteSession(sessionId) {
      await client
        .request({ method: 'DELETE', path: sessionPath(sessionId), attempts: 3 })
        .catch((error: unknown) => (isAgentError(error) && error.code === 'NOT_FOUND' ? null : failed(error)));
      dispatch({ type: 'deleted', sessionId });
      if (client.getState().sessionId === sessionId) client.newSession();
    },
    switchSession: (sessionId) => client.switchSession(sessionId),
    newSession: () => client.newSession(),
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      unsubscribe();
      listeners.clear();
    },
  };
}
