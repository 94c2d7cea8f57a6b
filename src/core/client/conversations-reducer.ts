import type { SessionListResponse, SessionResource } from '../protocol.ts';
import type { ClientError } from './client-state.ts';

/** The user's conversations as the panel shows them: what was listed, and the one on screen. */
export interface ConversationsState {
  /** Listed sessions, latest activity first (pages appended in order). */
  items: readonly SessionResource[];
  /** Cursor of the next page, or null when everything is listed. */
  nextAfter: string | null;
  /** True once a first page arrived. */
  isLoaded: boolean;
  isLoading: boolean;
  /** The last failed list, rename or delete, until the next success. */
  error: ClientError | null;
  /** The client's `state.sessionId`: the conversation on screen. */
  currentSessionId: string | null;
}

/** Everything that changes {@link ConversationsState}, as plain data. */
export type ConversationsAction =
  | { type: 'listStarted' }
  /** A page arrived; `isNextPage` appends it, else it replaces the list. */
  | { type: 'listed'; page: SessionListResponse; isNextPage: boolean }
  | { type: 'failed'; error: ClientError }
  | { type: 'renamed'; session: SessionResource }
  | { type: 'deleted'; sessionId: string }
  | { type: 'currentChanged'; sessionId: string | null };

/** Returns the state before anything was listed. */
export function createInitialConversationsState(currentSessionId: string | null = null): ConversationsState {
  return { items: [], nextAfter: null, isLoaded: false, isLoading: false, error: null, currentSessionId };
}

/** Folds one action into the conversations state; pure, never mutates its input. */
export function reduceConversations(state: ConversationsState, action: ConversationsAction): ConversationsState {
  switch (action.type) {
    case 'listStarted':
      return { ...state, isLoading: true };
    case 'listed': {
      const listed = action.isNextPage ? [...state.items, ...action.page.items] : action.page.items;
      // Pages never overlap on the server, but a session that appears twice is shown once, first place kept.
      const byId = new Map<string, SessionResource>();
      for (const item of listed) if (!byId.has(item.sessionId)) byId.set(item.sessionId, item);
      return {
        ...state,
        items: [...byId.values()],
        nextAfter: action.page.nextAfter,
        isLoaded: true,
        isLoading: false,
        error: null,
      };
    }
    case 'failed':
      return { ...state, isLoading: false, error: action.error };
    case 'renamed':
      return {
        ...state,
        items: state.items.map((item) => (item.sessionId === action.session.sessionId ? action.session : item)),
        error: null,
      };
    case 'deleted':
      return { ...state, items: state.items.filter((item) => item.sessionId !== action.sessionId), error: null };
    case 'currentChanged':
      return action.sessionId === state.currentSessionId ? state : { ...state, currentSessionId: action.sessionId };
  }
}
