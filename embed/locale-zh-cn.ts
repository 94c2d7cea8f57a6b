/**
 * The script-tag locale pack `dist/agent-chat.zh-CN.js`: puts the widget's Simplified Chinese
 * strings on `AgentChatLocales['zh-CN']`, where the widget looks when it mounts with a `zh` locale.
 * It needs nothing from `agent-chat.js`, so the two tags may come in either order (both before
 * `mount` runs).
 */
import type {} from '../src/ui/i18n/locale-packs.ts';
import { ZH_CN_STRINGS } from '../src/ui/i18n/zh-cn.ts';

const packs = (globalThis.AgentChatLocales ??= {});
packs['zh-CN'] = ZH_CN_STRINGS;
