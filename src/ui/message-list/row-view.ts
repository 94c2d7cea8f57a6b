import type {
  ClientError,
  ClientState,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
} from '../../core/index.ts';
import { formatExpiresIn } from '../approval-card/format-expires-in.ts';
import type { ToolCardsStatus } from '../agent-chat/tool-cards-controller.ts';
import type { TurnActions } from '../turn-actions.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import type { TranscriptItem } from './build-transcript-items.ts';
import type { MessageReference, ToolCardRenderer } from './message-list.ts';

/** An approval as one row shows it. */
export interface ApprovalView {
  interrupt: SnapshotInterrupt;
  isSubmitting: boolean;
  /** When an open approval expires, relative to the render's `now` (changes as time passes); else empty. */
  expiresIn: string;
  /** What renders the card (the tool cards load on the first tool call or approval). */
  cards: ToolCardsStatus;
}

/**
 * Everything one transcript row's template reads (callbacks aside): the row is templated again
 * exactly when one of these values changes by identity, so what it renders and what it is
 * compared by cannot drift apart.
 */
export type RowView =
  | { kind: 'reasoning'; message: SnapshotMessage; strings: AgentChatStrings; isOpen: boolean; isDiscarded: boolean }
  | { kind: 'user'; message: SnapshotMessage; strings: AgentChatStrings }
  | {
      kind: 'assistant';
      message: SnapshotMessage;
      strings: AgentChatStrings;
      getReferences: ((message: SnapshotMessage) => MessageReference[]) | undefined;
      isDiscarded: boolean;
      /** Its run ended because the server process writing it stopped (`RUN_ABANDONED`). */
      isInterrupted: boolean;
      /** The last answer of its run (`findTurnEnds`): the one segment of the turn that offers its actions. */
      isTurnEnd: boolean;
      /** What renders the turn's actions (Copy, the votes), once loaded. */
      actions: TurnActions | undefined;
    }
  /** `canRetry`: this failure is the client's current error and `retry()` can help; `isReferenceShown`: its reference is not behind Details. */
  | {
      kind: 'failure';
      error: ClientError;
      strings: AgentChatStrings;
      canRetry: boolean;
      isReferenceShown: boolean | undefined;
    }
  | ({ kind: 'interrupt'; strings: AgentChatStrings } & ApprovalView)
  | {
      kind: 'tool';
      toolCall: SnapshotToolCall;
      /** That the call ended its run on purpose (with the tool's reason), or what the page's tool runner says about a browser tool call (where it runs); else undefined. */
      note: string | undefined;
      renderer: ToolCardRenderer | undefined;
      /** What renders the tool card. */
      cards: ToolCardsStatus;
      approvals: ApprovalView[];
      strings: AgentChatStrings;
    };

/** What a row's view is built from. */
export interface RowViewSources {
  state: ClientState;
  strings: AgentChatStrings;
  locale: string;
  isReasoningOpen: (message: SnapshotMessage, index: number) => boolean;
  renderers?: Record<string, ToolCardRenderer> | undefined;
  getReferences?: ((message: SnapshotMessage) => MessageReference[]) | undefined;
  /** Epoch ms of this render: approvals say their expiry relative to it. */
  now: number;
  /** What renders tool call and approval cards. */
  toolCards: ToolCardsStatus;
  /** The ids of the turns' last answers (`findTurnEnds` of the state's messages). */
  turnEnds: ReadonlySet<string>;
  /** What renders a turn's actions; undefined while they load. */
  turnActions: TurnActions | undefined;
  /** Shows a failed answer's reference as a line of its own instead of behind Details. */
  showErrorReference?: boolean | undefined;
}

/** Builds the view of one transcript item; `index` is the message's position among messages (-1 for other rows). */
export function buildRowView(item: TranscriptItem, index: number, sources: RowViewSources): RowView {
  const { strings, locale, state } = sources;
  const approvalOf = (interrupt: SnapshotInterrupt): ApprovalView => ({
    interrupt,
    isSubmitting: state.submittingInterruptIds.includes(interrupt.id),
    cards: sources.toolCards,
    expiresIn: interrupt.state === 'open' ? formatExpiresIn(interrupt.expiresAt, sources.now, locale) : '',
  });
  if (item.kind === 'failure') {
    const current = state.error;
    const canRetry = current?.source === 'run' && current.runId === item.error.runId && current.retryable;
    return { kind: 'failure', error: item.error, strings, canRetry, isReferenceShown: sources.showErrorReference };
  }
  if (item.kind === 'interrupt') return { kind: 'interrupt', ...approvalOf(item.interrupt), strings };
  if (item.kind === 'tool') {
    const { toolCallId } = item.toolCall;
    const stopReason = state.toolStops[toolCallId];
    return {
      kind: 'tool',
      toolCall: item.toolCall,
      note:
        stopReason === undefined
          ? state.toolRunner?.notes[toolCallId]
          : formatString(strings.toolStoppedRun, { reason: stopReason }),
      renderer: sources.renderers?.[item.toolCall.name],
      cards: sources.toolCards,
      approvals: item.interrupts.map(approvalOf),
      strings,
    };
  }
  const { message } = item;
  // A failed attempt's output, kept while the run retries.
  const isDiscarded = state.discardedMessageIds.includes(message.messageId);
  if (message.role === 'reasoning') {
    return { kind: 'reasoning', message, strings, isOpen: sources.isReasoningOpen(message, index), isDiscarded };
  }
  if (message.role === 'user') return { kind: 'user', message, strings };
  const isInterrupted =
    message.status === 'error' &&
    state.runErrors.some((error) => error.code === 'RUN_ABANDONED' && error.runId === message.runId);
  const isTurnEnd = sources.turnEnds.has(message.messageId);
  const { getReferences, turnActions: actions } = sources;
  return {
    kind: 'assistant',
    message,
    strings,
    getReferences,
    isDiscarded,
    isInterrupted,
    isTurnEnd,
    actions,
  };
}

/** The values a row is compared by: every field of its view, each approval's fields spread in. */
export function rowInputsOf(view: RowView): unknown[] {
  if (view.kind !== 'tool') return Object.values(view);
  const { approvals, ...fields } = view;
  return [...Object.values(fields), ...approvals.flatMap((approval) => Object.values(approval))];
}
