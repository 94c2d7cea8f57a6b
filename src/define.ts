import { AgentChatElement } from './ui/agent-chat/agent-chat.ts';

/** Registers `<agent-chat>` once; importing this module is the widget's only global side effect. */
if (!customElements.get('agent-chat')) customElements.define('agent-chat', AgentChatElement);
