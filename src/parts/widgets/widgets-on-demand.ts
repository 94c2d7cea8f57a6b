import type { CardTemplating } from '../../ui/card-templating.ts';
import type { WidgetsModule } from './widgets-global.ts';

// A chunk of the ESM build; in the script tag's, the part file whose name and integrity the tool
// cards' file carries (src/parts/part-table.ts, `carriedBy`), loaded through agent-chat.js (`loadFile`).
const loadModule: (templating: CardTemplating) => Promise<WidgetsModule> = __SCRIPT_TAG_BUILD__
  ? ({ loadFile }) =>
      loadFile
        ? loadFile(__AGENT_CHAT_PART_FILES__['widgets']!, () => window.AgentChatWidgets)
        : Promise.reject(new Error('AgentChat: the widgets file needs agent-chat.js'))
  : () => import('../../ui/widgets.ts');
let loading: Promise<void> | undefined;

/**
 * Loads the widgets' file once and defines `<agent-chat-widget>` with `templating`. Rejects when
 * the file does not load (network, integrity, CSP); a later call tries again.
 */
export function loadWidgets(templating: CardTemplating): Promise<void> {
  loading ??= loadModule(templating).then(
    ({ defineWidgetElement }) => defineWidgetElement(templating),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
