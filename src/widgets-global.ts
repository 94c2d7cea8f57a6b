/**
 * Types of the script-tag widgets file (`agent-chat/agent-chat.widgets.js`): the
 * `window.AgentChatWidgets` global it installs, which the tool cards file loads when a card first
 * shows a widget (embed/tool-cards.ts).
 */
import type { WidgetsModule } from './ui/tool-card/widgets-on-demand.ts';

declare global {
  interface Window {
    AgentChatWidgets?: WidgetsModule;
  }
}
