/**
 * Types of the script-tag composer extras file (`agent-chat/agent-chat.composer-extras.js`): the
 * `window.AgentChatComposerExtras` global it installs, which `agent-chat.js` loads when the
 * composer first offers attaching or an effort picker (src/parts/load-part-file.ts).
 */
import type * as composerExtrasModule from '../../ui/composer-extras.ts';

/** What the composer extras' file provides: `src/ui/composer-extras.ts` itself, or the script tag's part file. */
export type ComposerExtrasModule = typeof composerExtrasModule;

declare global {
  interface Window {
    AgentChatComposerExtras?: ComposerExtrasModule;
  }
}
