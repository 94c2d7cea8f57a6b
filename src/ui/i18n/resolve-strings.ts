import { EN_STRINGS, type AgentChatStrings } from './en.ts';
import { ZH_CN_STRINGS } from './zh-cn.ts';

/**
 * Returns the strings for `locale` (a BCP 47 tag; `zh*` gets Simplified Chinese, anything else
 * English) with `overrides` laid over them key by key.
 */
export function resolveStrings(locale: string, overrides?: Partial<AgentChatStrings>): AgentChatStrings {
  const base = locale.toLowerCase().startsWith('zh') ? ZH_CN_STRINGS : EN_STRINGS;
  return overrides ? { ...base, ...overrides } : base;
}

/** Returns `template` with each `{name}` replaced by `values[name]` (unknown names stay as written). */
export function formatString(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
