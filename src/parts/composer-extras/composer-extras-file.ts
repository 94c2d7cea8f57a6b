/**
 * The script-tag composer extras file `dist/agent-chat.composer-extras.js`: sets
 * `window.AgentChatComposerExtras = { createComposerExtras }`. A part file (src/parts/part-table.ts):
 * `agent-chat.js` fetches it with its integrity when the composer first offers attaching or an
 * effort picker, and renders them with its own Lit, so this file holds no Lit and creates no
 * Trusted Types policy.
 */
import type {} from './composer-extras-global.ts';
import { createComposerExtras } from '../../ui/composer-extras.ts';

window.AgentChatComposerExtras = Object.freeze({ createComposerExtras });
