import type { ClientState, SnapshotMessage } from '../../core/index.ts';
import '../../define.ts';
import type { AgentChatElement } from '../agent-chat/agent-chat.ts';
import { loadToolCards } from '../../parts/tool-cards/tool-cards-on-demand.ts';
import { loadTurnActions } from '../../parts/turn-actions/turn-actions-on-demand.ts';
import { loadComposerExtras } from '../../parts/composer-extras/composer-extras-on-demand.ts';
import { FakeAgentClient } from './fake-agent-client.ts';

/** A mounted widget with its fake client, for component tests. */
export interface MountedAgentChat {
  element: AgentChatElement;
  client: FakeAgentClient;
  root: ShadowRoot;
  /** Pushes state and waits for the element's render and one animation frame (Markdown commits). */
  emit: (patch: Partial<ClientState>) => Promise<void>;
}

/**
 * Mounts `<agent-chat>` in English light theme (unless `configure` changes it) bound to a fresh
 * fake client, with the tool cards, the turn actions and the composer extras loaded already (as on
 * a page that has shown them), so a tool call, an approval or an attach button renders in the same
 * update as its state.
 */
export async function mountAgentChat(
  configure?: (element: AgentChatElement) => void,
  client = new FakeAgentClient(),
): Promise<MountedAgentChat> {
  await Promise.all([loadToolCards(), loadTurnActions(), loadComposerExtras()]);
  const element = document.createElement('agent-chat');
  element.locale = 'en';
  element.theme = 'light';
  configure?.(element);
  element.client = client;
  document.body.append(element);
  await element.updateComplete;
  const emit = async (patch: Partial<ClientState>): Promise<void> => {
    client.emit(patch);
    await element.updateComplete;
    await nextFrame();
  };
  return { element, client, root: element.shadowRoot as ShadowRoot, emit };
}

/** Resolves after the next animation frame. */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Builds a transcript message with defaults for the fields a test does not care about. */
export function createMessage(patch: Partial<SnapshotMessage> & Pick<SnapshotMessage, 'messageId'>): SnapshotMessage {
  return { role: 'assistant', content: '', status: 'complete', runId: 'run-1', ...patch };
}
