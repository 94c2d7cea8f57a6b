/**
 * `agent-chat/locales/zh-cn`: importing it registers the widget's Simplified Chinese strings for
 * `zh-CN` (and any `zh` tag), so ESM builds pay for Chinese only when they ask for it. The
 * script-tag build's equivalent is `agent-chat.zh-CN.js` (docs/embedding.md, "Languages").
 */
import { registerLocale } from '../ui/i18n/locale-packs.ts';
import { ZH_CN_STRINGS } from '../ui/i18n/zh-cn.ts';

registerLocale('zh-CN', ZH_CN_STRINGS);

export { ZH_CN_STRINGS };
