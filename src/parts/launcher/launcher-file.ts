/**
 * The script tag's launcher, the sibling file `dist/agent-chat.launcher.js` (src/parts/part-table.ts):
 * sets `globalThis.AgentChatLauncher`, whose `createLauncher` builds the launcher of a
 * `mode: 'launcher'` mount. `agent-chat.js` fetches it on the first such mount; plain DOM and its
 * styles, nothing else of the widget. Inline pages never fetch it.
 */
import type {} from '../../agent-chat-global.ts';
import { createLauncher } from '../../ui/launcher/create-launcher.ts';

globalThis.AgentChatLauncher = Object.freeze({ createLauncher });
