/**
 * `agent-chat/react`: `<agent-chat>` as a React component, through `@lit/react`. Importing it
 * defines `<agent-chat>` (like `agent-chat/define`); `react` is the host's own copy (an optional
 * peer dependency), so nothing else in the package ever loads React.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import '../define.ts';
import type { AgentChatEventMap } from '../ui/agent-chat/agent-chat-events.ts';
import { AgentChatElement } from '../ui/agent-chat/agent-chat.ts';

/**
 * The React component for `<agent-chat>`. Props set the element's properties (`client`, `theme`,
 * `locale`, `strings`, `renderers`…); `onSend`, `onApprove` and `onError` receive its
 * `agent-chat-send`, `agent-chat-approve` and `agent-chat-error` events with their typed `detail`.
 * The host creates the `AgentClient` (`agent-chat/core`), calls its `bootstrap()` and disposes it.
 */
export const AgentChat = createComponent({
  tagName: 'agent-chat',
  elementClass: AgentChatElement,
  react: React,
  displayName: 'AgentChat',
  events: {
    onSend: 'agent-chat-send' as EventName<AgentChatEventMap['agent-chat-send']>,
    onApprove: 'agent-chat-approve' as EventName<AgentChatEventMap['agent-chat-approve']>,
    onError: 'agent-chat-error' as EventName<AgentChatEventMap['agent-chat-error']>,
  },
});

/** The props of {@link AgentChat}: the element's public properties, its three event callbacks and React's own. */
export type AgentChatProps = React.ComponentProps<typeof AgentChat>;
