/**
 * The script tag's launcher, `dist/agent-chat.launcher.js`: sets `globalThis.AgentChatLauncher`,
 * where `AgentChat.mount` finds the launcher for `mode: 'launcher'`. Plain DOM and its styles,
 * nothing else of the widget, so the two tags may come in either order (both before `mount` runs);
 * inline pages do not load it.
 */
import type {} from '../src/agent-chat-global.ts';
import { createLauncher } from '../src/ui/launcher/create-launcher.ts';

globalThis.AgentChatLauncher = Object.freeze({ createLauncher });
