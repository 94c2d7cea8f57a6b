/**
 * Types of the script-tag composer extras file (`agent-chat/agent-chat.composer-extras.js`): the
 * `window.AgentChatComposerExtras` global it installs, which `agent-chat.js` loads when the
 * composer first offers attaching or an effort picker (src/parts/load-part-file.ts).
 */
import type { ComposerExtrasModule } from './composer-extras-on-demand.ts';

declare global {
  interface Window {
    AgentChatComposerExtras?: ComposerExtrasModule;
  }
}
