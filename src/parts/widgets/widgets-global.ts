/**
 * Types of the script-tag widgets file (`agent-chat/agent-chat.widgets.js`): the
 * `window.AgentChatWidgets` global it installs, which the tool cards file loads when a card first
 * shows a widget (src/parts/widgets/widgets-on-demand.ts).
 */
import type { WidgetsModule } from './widgets-on-demand.ts';

declare global {
  interface Window {
    AgentChatWidgets?: WidgetsModule;
  }
}
