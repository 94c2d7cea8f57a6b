import type { AgentChatStrings } from './en.ts';

/** The strings of one locale as a pack supplies them; keys it lacks fall back to English. */
export type LocalePack = Partial<AgentChatStrings>;

declare global {
  /**
   * Locale packs by BCP 47 tag, filled by a script-tag pack (`agent-chat.zh-CN.js` sets
   * `AgentChatLocales['zh-CN']`) before the widget mounts, in whichever order the two scripts run.
   */
  var AgentChatLocales: Record<string, LocalePack> | undefined;
}

const registered = new Map<string, LocalePack>();

/**
 * Makes `strings` the widget's strings for `locale` in this page (what `agent-chat/locales/zh-cn`
 * does on import). A later registration of the same tag replaces the earlier one.
 */
export function registerLocale(locale: string, strings: LocalePack): void {
  registered.set(locale.toLowerCase(), strings);
}

/**
 * The pack for a BCP 47 tag, or `undefined` (English): a registered pack, else one from
 * `globalThis.AgentChatLocales`; its exact tag first, else any pack of the same language
 * (`zh`, `zh-Hans` or `zh-TW` get the `zh-CN` pack when it is the only Chinese one).
 */
export function findLocalePack(locale: string): LocalePack | undefined {
  const packs = [...registered, ...Object.entries(globalThis.AgentChatLocales ?? {})];
  const tag = locale.toLowerCase();
  const language = tag.split('-')[0];
  const exact = packs.find(([key]) => key.toLowerCase() === tag);
  const sameLanguage = packs.find(([key]) => key.toLowerCase().split('-')[0] === language);
  return (exact ?? sameLanguage)?.[1];
}
