/**
 * Types of the script-tag widgets file (`agent-chat/agent-chat.widgets.js`): the
 * `window.AgentChatWidgets` global it installs, which the tool cards file loads when a card first
 * shows a widget (src/parts/widgets/widgets-on-demand.ts).
 */
import type * as widgetsModule from '../../ui/widgets.ts';

/** What the widgets' file provides: `src/ui/widgets.ts` itself, or the script tag's part file. */
export type WidgetsModule = typeof widgetsModule;

declare global {
  interface Window {
    AgentChatWidgets?: WidgetsModule;
  }
}
