import { EN_STRINGS, type AgentChatStrings } from './en.ts';
import { findLocalePack, type LocalePack } from './locale-packs.ts';

/**
 * Returns the strings for `locale` (a BCP 47 tag): English, with the locale's pack laid over it
 * when one is loaded (`agent-chat/locales/zh-cn`, or the script-tag `agent-chat.zh-CN.js`), and
 * `overrides` over both, key by key. Only string values of a pack are taken.
 */
export function resolveStrings(locale: string, overrides?: LocalePack): AgentChatStrings {
  const pack = findLocalePack(locale);
  if (pack === undefined && overrides === undefined) return EN_STRINGS;
  const packStrings = Object.fromEntries(Object.entries(pack ?? {}).filter(([, value]) => typeof value === 'string'));
  return { ...EN_STRINGS, ...packStrings, ...overrides };
}

/** Returns `template` with each `{name}` replaced by `values[name]` (unknown names stay as written). */
export function formatString(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
