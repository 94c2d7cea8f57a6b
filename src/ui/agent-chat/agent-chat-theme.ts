/** Every colour scheme `<agent-chat>` accepts, in documentation order (also what `mount` validates against). */
export const AGENT_CHAT_THEMES = ['light', 'dark', 'auto'] as const;

/** The colour scheme: fixed light or dark, or `auto` following `prefers-color-scheme`. */
export type AgentChatTheme = (typeof AGENT_CHAT_THEMES)[number];
