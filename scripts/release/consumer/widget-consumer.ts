// Type-checked only (tsconfig.dom.json: ES2023 + DOM lib, no Node types, strict, skipLibCheck off).
import {
  AgentChatElement,
  createConversations,
  defineConversationsPanel,
  mount,
  type AgentChatApproveDetail,
  type AgentChatErrorDetail,
  type AgentChatSendDetail,
  type AgentChatTheme,
  type MountedAgentChat,
} from 'agent-chat';
import type {} from 'agent-chat/agent-chat.js';
import type {} from 'agent-chat/agent-chat.zh-CN.js';
import type {} from 'agent-chat/agent-chat.launcher.js';
import type {} from 'agent-chat/agent-chat.conversations.js';
import type {} from 'agent-chat/agent-chat.highlight.js';
import { enableHighlighting, HIGHLIGHT_LANGUAGES } from 'agent-chat/highlight';
import { ZH_CN_STRINGS } from 'agent-chat/locales/zh-cn';
import 'agent-chat/define';
import { createAgentClient } from 'agent-chat/core';
import { AgentChat, type AgentChatProps } from 'agent-chat/react';
import { createElement } from 'react';

// A locale pack: the global a script-tag pack fills, typed; the ESM pack's strings, typed.
const packs: Record<string, Partial<typeof ZH_CN_STRINGS>> | undefined = globalThis.AgentChatLocales;
console.log(packs, ZH_CN_STRINGS.send.length);
// The script tag's launcher file fills this global, typed.
console.log(globalThis.AgentChatLauncher?.createLauncher);
// The script tag's highlighter file fills this global, typed; the ESM host turns highlighting on.
console.log(window.AgentChatHighlight?.highlight('let a', 'ts')?.length, HIGHLIGHT_LANGUAGES.length);
enableHighlighting();

const chat: MountedAgentChat = mount('#assistant', { endpoint: '/api/agent', theme: 'dark', mode: 'launcher' });

// The conversations panel over the mounted client, from ESM and from the script-tag file's global.
defineConversationsPanel();
const panel = document.createElement('agent-chat-conversations');
panel.client = chat.client;
const placed = document.createElement('agent-chat-conversations');
placed.conversations = createConversations({ client: chat.client });
const fromScriptTag = window.AgentChatConversations?.create({ client: chat.client });
// The header's "Conversations" sheet is on by default; the option and the property turn it off.
const hasSheet: boolean = chat.element.conversations;
console.log(placed.conversations.getState().items.length, fromScriptTag?.getState().isLoaded, hasSheet);
mount('#fourth', { endpoint: '/api/agent', conversations: false });
const element: AgentChatElement = chat.element;
const theme: AgentChatTheme = element.theme;
const isElement: boolean = document.querySelector('agent-chat') instanceof AgentChatElement;

// Every event of <agent-chat> is typed through HTMLElementEventMap, on the element and above it.
element.addEventListener('agent-chat-send', (event) => {
  const detail: AgentChatSendDetail = event.detail;
  console.log(detail.text.length, detail.contextRefs.length);
});
document.querySelector('agent-chat')?.addEventListener('agent-chat-approve', (event) => {
  const detail: AgentChatApproveDetail = event.detail;
  const decision: 'allow' | 'deny' = detail.decision;
  console.log(detail.interruptId, decision);
});
document.body.addEventListener('agent-chat-error', (event) => {
  const detail: AgentChatErrorDetail = event.detail;
  console.log(detail.code, detail.retryable, theme, isElement);
});

// @ts-expect-error the send event's detail has no `message`
element.addEventListener('agent-chat-send', (event) => console.log(event.detail.message));

// @ts-expect-error 'sepia' is not a theme
mount('#other', { endpoint: '/api/agent', theme: 'sepia' });

// The script-tag global, declared by agent-chat/agent-chat.js's types.
const version: string | undefined = window.AgentChat?.version;
window.AgentChat?.mount('#third', { endpoint: '/api/agent' });

// agent-chat/react: the element's properties as props, its events as typed callbacks.
const props: AgentChatProps = {
  client: createAgentClient({ endpoint: '/api/agent' }),
  theme: 'light',
  locale: 'zh-CN',
  onSend: (event) => console.log(event.detail.text, version),
  onApprove: (event) => console.log(event.detail.decision),
  onError: (event) => console.log(event.detail.message),
};
createElement(AgentChat, props);

// The mount options as props: the component owns a client for `endpoint`; `title` is the header's.
createElement(AgentChat, {
  endpoint: '/api/agent',
  title: 'My product assistant',
  persist: true,
  onRunFinish: (event) => console.log(event.detail.status),
  onSession: (event) => console.log(event.detail.sessionId),
});

// @ts-expect-error `headerTitle` is not a prop: the header's title is `title`, as in mount
createElement(AgentChat, { endpoint: '/api/agent', headerTitle: 'My product assistant' });

// @ts-expect-error onApprove receives the approve event, not the send event
createElement(AgentChat, { onApprove: (event: CustomEvent<AgentChatSendDetail>) => event.detail.text });

// @ts-expect-error `theme` accepts only a theme
createElement(AgentChat, { theme: 'sepia' });
