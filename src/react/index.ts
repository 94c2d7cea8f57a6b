/**
 * `agent-chat/react`: `<agent-chat>` as a React component, through `@lit/react`. Importing it
 * defines `<agent-chat>` (like `agent-chat/define`); `react` is the host's own copy (an optional
 * peer dependency), so nothing else in the package ever loads React.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import '../define.ts';
import { createAgentClient, type AgentClientHandle } from '../core/index.ts';
import type { MountOptions } from '../mount-options.ts';
import { sessionPersistenceFor } from '../session-persistence.ts';
import type { AgentChatEventMap, AgentChatEventName } from '../ui/agent-chat/agent-chat-events.ts';
import { AgentChatElement } from '../ui/agent-chat/agent-chat.ts';

/** Each event's callback prop: `on` and the event's name after `agent-chat-`, in camel case. */
export const AGENT_CHAT_EVENT_PROPS = {
  onSend: 'agent-chat-send',
  onApprove: 'agent-chat-approve',
  onError: 'agent-chat-error',
  onRunStart: 'agent-chat-run-start',
  onRunFinish: 'agent-chat-run-finish',
  onMessage: 'agent-chat-message',
  onToolStart: 'agent-chat-tool-start',
  onToolEnd: 'agent-chat-tool-end',
  onApprovalRequest: 'agent-chat-approval-request',
  onApprovalResolve: 'agent-chat-approval-resolve',
  onSession: 'agent-chat-session',
  onLauncherOpen: 'agent-chat-launcher-open',
  onLauncherClose: 'agent-chat-launcher-close',
} as const satisfies Record<string, AgentChatEventName>;

type EventProps = typeof AGENT_CHAT_EVENT_PROPS;
type TypedEvents = { [Prop in keyof EventProps]: EventName<AgentChatEventMap[EventProps[Prop]]> };

/** The element itself as a component: props are its properties, the `on…` props its events. */
const AgentChatElementComponent = createComponent({
  tagName: 'agent-chat',
  elementClass: AgentChatElement,
  react: React,
  displayName: 'AgentChatElement',
  events: AGENT_CHAT_EVENT_PROPS as TypedEvents,
});

/** The mount options that are not properties of the element, as props of the same name. */
export interface AgentChatMountProps {
  /** The header's title (the element's `headerTitle`); defaults to the agent's name from bootstrap. */
  title?: string;
  /** The agent API; with it (and no `client`) the component creates, bootstraps and disposes its own client. */
  endpoint?: string;
  /** Pins new sessions of the owned client to this agent version. */
  agentVersion?: string;
  /** The conversation the owned client restores after its first bootstrap. */
  sessionId?: string;
  /** The owned client's fetch `credentials`. */
  credentials?: MountOptions['credentials'];
  /** Extra request headers of the owned client, read before each request. */
  headers?: MountOptions['headers'];
  /** Whether the owned client keeps the conversation in `sessionStorage` across reloads (as `mount`; default true). */
  persist?: boolean;
}

type ElementProps = React.ComponentProps<typeof AgentChatElementComponent>;

/**
 * The props of {@link AgentChat}: the element's public properties (`client`, `theme`, `locale`,
 * `strings`, `renderers`…), the mount options of {@link AgentChatMountProps}, a typed callback
 * for each of the 13 events and React's own.
 */
export type AgentChatProps = Omit<ElementProps, keyof AgentChatMountProps | 'headerTitle' | 'ref'> &
  AgentChatMountProps & { ref?: React.Ref<AgentChatElement> };

/**
 * `<agent-chat>` for React. Give it `endpoint` and it owns a client as `mount` does (created on
 * mount, bootstrapped, disposed on unmount, created again when `endpoint`, `agentVersion`,
 * `credentials`, `persist` or `locale` change), or `client` to use yours (then the client props
 * are ignored). `title` sets the header's title.
 */
export const AgentChat = React.forwardRef<AgentChatElement, Omit<AgentChatProps, 'ref'>>(
  function AgentChat(props, ref) {
    const { title, endpoint, agentVersion, sessionId, credentials, headers, persist, client, ...rest } = props;
    const owned = useOwnedClient(
      client === undefined && endpoint !== undefined
        ? { endpoint, agentVersion, sessionId, credentials, headers, persist, locale: rest.locale, id: rest.id }
        : null,
    );
    return React.createElement(AgentChatElementComponent, {
      ...rest,
      ref,
      client: client ?? owned,
      ...(title === undefined ? {} : { headerTitle: title }),
    });
  },
);

interface OwnedClientOptions extends Omit<AgentChatMountProps, 'title' | 'endpoint'> {
  endpoint: string;
  locale: string | undefined;
  id: string | undefined;
}

/** The client the component owns while `options` are given: created in an effect, disposed in its cleanup. */
function useOwnedClient(options: OwnedClientOptions | null): AgentClientHandle | undefined {
  const [client, setClient] = React.useState<AgentClientHandle | undefined>(undefined);
  const latest = React.useRef(options);
  latest.current = options;
  const identity =
    options === null
      ? null
      : JSON.stringify([
          options.endpoint,
          options.agentVersion,
          options.credentials,
          options.persist !== false,
          options.locale,
          options.id,
          options.headers !== undefined,
        ]);
  React.useEffect(() => {
    const current = latest.current;
    if (current === null) return undefined;
    const created = createAgentClient({
      endpoint: current.endpoint,
      locale: current.locale ?? globalThis.navigator?.language ?? 'en',
      syncTabs: true,
      ...(current.agentVersion ? { agentVersion: current.agentVersion } : {}),
      ...(current.credentials ? { credentials: current.credentials } : {}),
      ...(current.headers ? { headers: () => latest.current?.headers?.() ?? {} } : {}),
      ...(current.persist !== false ? sessionPersistenceFor(current.id) : {}),
    });
    setClient(created);
    const sessionId = current.sessionId;
    void created
      .bootstrap()
      .then(() => (sessionId ? created.restore(sessionId) : undefined))
      // The client put the failure into its state, where the widget shows it with Retry.
      .catch(() => undefined);
    return () => {
      setClient(undefined);
      created.dispose();
    };
  }, [identity]);
  return client;
}
