import { isTerminalRunStatus, type ClientState, type ToolCallStatus } from '../../core/index.ts';
import type { AgentChatEventDetails, AgentChatEventName } from './agent-chat-events.ts';

/** One event to dispatch: its name and detail. */
export type LifecycleEvent = { [Name in AgentChatEventName]: [Name, AgentChatEventDetails[Name]] }[AgentChatEventName];

const TOOL_END_STATUSES: readonly ToolCallStatus[] = ['completed', 'failed', 'denied', 'cancelled', 'unknown'];

/**
 * Turns successive client states into the host's lifecycle events: the session changed, a run
 * started and finished, an answer completed, a tool call started and ended, an approval was
 * requested and resolved. Only what happens while the widget watches is news: what a state
 * already holds while no run is live (history, a restored finished session) is taken as known
 * and reported never; an item first seen while its run is live is reported, and its end only
 * after its start. It only computes; the element dispatches.
 */
export class LifecycleEventTracker {
  #sessionId: string | null | undefined = undefined;
  #liveRunId: string | null = null;
  /** Keys of everything seen once: `tool:…`, `tool-end:…`, `approval:…`, `resolved:…`, `message:…`. */
  #seen = new Set<string>();
  /** The keys among them that were news (reported), so an end is reported only after its start. */
  #reported = new Set<string>();

  /** Returns the events `state` means since the previous one, in the order they happened. */
  observe(state: ClientState): LifecycleEvent[] {
    const events: LifecycleEvent[] = [];
    const note = (key: string, isNews: boolean, event: LifecycleEvent): void => {
      if (this.#seen.has(key)) return;
      this.#seen.add(key);
      if (!isNews) return;
      this.#reported.add(key);
      events.push(event);
    };
    if (state.sessionId !== this.#sessionId) {
      if (this.#sessionId !== undefined) events.push(['agent-chat-session', { sessionId: state.sessionId }]);
      this.#sessionId = state.sessionId;
    }
    const run = state.run;
    const isLive = run !== null && !isTerminalRunStatus(run.status);
    if (isLive && run.runId !== this.#liveRunId) {
      this.#liveRunId = run.runId;
      events.push(['agent-chat-run-start', { runId: run.runId }]);
    }
    for (const toolCall of state.toolCalls) {
      const key = `tool:${toolCall.toolCallId}`;
      note(key, isLive, ['agent-chat-tool-start', { toolCall }]);
      if (TOOL_END_STATUSES.includes(toolCall.status)) {
        note(`tool-end:${toolCall.toolCallId}`, this.#reported.has(key), ['agent-chat-tool-end', { toolCall }]);
      }
    }
    for (const interrupt of state.interrupts) {
      const key = `approval:${interrupt.id}`;
      note(key, isLive, ['agent-chat-approval-request', { interrupt }]);
      if (interrupt.state !== 'open') {
        note(`resolved:${interrupt.id}`, this.#reported.has(key), ['agent-chat-approval-resolve', { interrupt }]);
      }
    }
    for (const message of state.messages) {
      if (message.role !== 'assistant' || message.status !== 'complete') continue;
      const isNews = isLive || (message.runId !== undefined && message.runId === this.#liveRunId);
      note(`message:${message.messageId}`, isNews, ['agent-chat-message', { message }]);
    }
    if (run !== null && run.runId === this.#liveRunId && isTerminalRunStatus(run.status)) {
      this.#liveRunId = null;
      events.push(['agent-chat-run-finish', { runId: run.runId, status: run.status }]);
    }
    return events;
  }
}
