import { isPlainObject } from './core/is-plain-object.ts';
import type { MountToolsOptions } from './tools/attach-tools.ts';
import type { AgentChatElement } from './ui/agent-chat/agent-chat.ts';
import { AGENT_CHAT_THEMES, type AgentChatTheme } from './ui/agent-chat/agent-chat-theme.ts';
import { LAUNCHER_POSITIONS, type LauncherPosition } from './ui/launcher/create-launcher.ts';

/** The widget's strings a product may override (every key optional; the launcher's labels included). */
export type MountStrings = NonNullable<AgentChatElement['strings']>;

/** Options of `mount`: where the agent lives, how the widget looks, and the product hooks. */
export interface MountOptions {
  /** Base URL of the product's agent proxy (the protocol lives at `{endpoint}/v1/…`), e.g. `/api/agent`. */
  endpoint: string;
  /** Agent version to pin new sessions to; defaults to the one bootstrap reports. */
  agentVersion?: string;
  /** Restores this conversation (`ses_…`) instead of starting a new one. */
  sessionId?: string;
  /** BCP 47 locale of the widget's strings (`en`, `zh-CN`); defaults to the browser's. */
  locale?: string;
  /** The colour scheme; `auto` (the default) follows `prefers-color-scheme`. */
  theme?: AgentChatTheme;
  /** Overrides of individual strings (see `AgentChatStrings`, plus the launcher's labels). */
  strings?: MountStrings;
  /** The header's title; defaults to the agent's name from bootstrap. */
  title?: string;
  /** The header's avatar image: an http(s) URL or a path (the page's CSP must allow it in `img-src`); defaults to bootstrap's `agent.avatarUrl`. */
  avatarUrl?: string;
  /** The empty conversation's greeting; defaults to the locale's ("How can I help you today?"). */
  greeting?: string;
  /** Suggestion chips of the empty conversation (at most 8); pressing one sends its text. */
  suggestions?: string[];
  /** Whether a reasoning panel collapses once the answer starts (default true). */
  collapseReasoning?: boolean;
  /**
   * Keeps the conversation and stream cursor in `sessionStorage`, so a reload resumes the run
   * (default true; `false` keeps nothing).
   */
  persist?: boolean;
  /** `inline` renders into the target; `launcher` adds a floating button that opens the panel. */
  mode?: 'inline' | 'launcher';
  /** Launcher only: open the panel at once (without moving focus). Default false. */
  startOpen?: boolean;
  /** Launcher only: its corner, `bottom-end` (default; right in a left-to-right page) or `bottom-start`. */
  position?: LauncherPosition;
  /** Fetch credentials of every request: `same-origin` (default), `include` for an agent API on another origin that uses cookies, or `omit`. */
  credentials?: 'omit' | 'same-origin' | 'include';
  /** The product's own headers before each request (e.g. a bearer token it refreshes); see docs/reference.md. */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Hook: lets the user pick references sent with the next message as `contextRefs`. */
  selectAttachments?: AgentChatElement['selectAttachments'];
  /** `false` offers no file attachments even when the server keeps them (default true). */
  attachments?: boolean;
  /** Hook: uploads an attached file to the product's own storage, resolving with its reference; see docs/reference.md. */
  uploadAttachment?: AgentChatElement['uploadAttachment'];
  /** Hook: returns source cards shown under an assistant message (safe URLs only). */
  getReferences?: AgentChatElement['getReferences'];
  /** Trusted product code that renders custom tool cards, keyed by tool name. */
  renderers?: AgentChatElement['renderers'];
  /**
   * `false` hides the header's "Conversations" button (and its sheet) even when
   * `agent-chat.conversations.js` is loaded. Default true.
   */
  conversations?: boolean;
  /**
   * Hook: the page context of each send, `{ title?, text }` or null, asked for at each send and sent
   * with the message as `focus`; it wins over the handle's `setContext`. See docs/embedding.md.
   */
  getContext?: AgentChatElement['getContext'];
  /** Offers a reasoning effort picker in the composer when the model has levels (default false). */
  effortPicker?: boolean;
  /** `false` hides the thumbs up and down (and their comment) under each answer. Default true. */
  feedback?: boolean;
  /** Shows an error's reference as a line of its own instead of behind Details (internal tools). Default false. */
  showErrorReference?: boolean;
  /**
   * Tools this page runs for the agent, keyed by name (docs/embedding.md, "Browser tools"). Only
   * with it does a runner start; the script tag needs `agent-chat-tools.js` loaded too.
   */
  tools?: MountToolsOptions['tools'];
  /** How `tools` run: `receipts`, `executorId`, `authorize`, `reconcile`, `onDiagnostic`, `locale`. */
  toolRunner?: MountToolsOptions['toolRunner'];
}

const isString = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
const isFunction = (value: unknown): boolean => typeof value === 'function';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const oneOf = (...allowed: string[]): OptionRule => [
  (value) => allowed.includes(value as string),
  allowed.map((item) => `"${item}"`).join(' or '),
];

/** An http(s) URL or a path (resolved against a placeholder base, so `javascript:` and `data:` fail). */
function isHttpUrl(value: unknown): boolean {
  try {
    return isString(value) && /^https?:$/.test(new URL(value as string, 'http://base.invalid').protocol);
  } catch {
    return false;
  }
}

/** An http(s) URL or a path, without query or fragment (tokens never go into URLs). */
function isEndpoint(value: unknown): boolean {
  if (!isString(value)) return false;
  try {
    const url = new URL(value as string, 'http://base.invalid');
    return /^https?:$/.test(url.protocol) && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/** How to check one option: a test, and what the option must be (said when the test fails). */
type OptionRule = [isValid: (value: unknown) => boolean, expected: string];

/** Every option in documentation order, with its check; `endpoint` is the one required option. */
const OPTION_RULES: Record<keyof MountOptions, OptionRule> = {
  endpoint: [isEndpoint, 'an http(s) URL or path without query or fragment, e.g. "/api/agent"'],
  agentVersion: [isString, 'a non-empty string'],
  sessionId: [isString, 'a non-empty string'],
  locale: [isString, 'a non-empty string'],
  theme: oneOf(...AGENT_CHAT_THEMES),
  strings: [
    (value) => isPlainObject(value) && Object.values(value).every((text) => typeof text === 'string'),
    'an object of strings',
  ],
  title: [isString, 'a non-empty string'],
  avatarUrl: [isHttpUrl, 'an http(s) URL or path'],
  greeting: [isString, 'a non-empty string'],
  suggestions: [
    (value) => Array.isArray(value) && value.length <= 8 && value.every(isString),
    'an array of at most 8 non-empty strings',
  ],
  collapseReasoning: [isBoolean, 'true or false'],
  persist: [isBoolean, 'true or false'],
  mode: oneOf('inline', 'launcher'),
  startOpen: [isBoolean, 'true or false'],
  position: oneOf(...LAUNCHER_POSITIONS),
  credentials: oneOf('omit', 'same-origin', 'include'),
  headers: [isFunction, 'a function returning headers (or a promise of them)'],
  selectAttachments: [isFunction, 'a function'],
  attachments: [isBoolean, 'true or false'],
  uploadAttachment: [isFunction, 'a function'],
  getReferences: [isFunction, 'a function'],
  renderers: [isPlainObject, 'an object of functions'],
  conversations: [isBoolean, 'true or false'],
  getContext: [isFunction, 'a function'],
  effortPicker: [isBoolean, 'true or false'],
  feedback: [isBoolean, 'true or false'],
  showErrorReference: [isBoolean, 'true or false'],
  tools: [isPlainObject, 'an object'],
  toolRunner: [isPlainObject, 'an object'],
};

/**
 * Checks `options` from untyped callers (the script-tag global) and returns them typed. Throws a
 * `TypeError` whose message names the option and says what it must be.
 */
export function validateMountOptions(options: unknown): MountOptions {
  if (!isPlainObject(options))
    throw new TypeError('AgentChat.mount: options must be an object such as { endpoint: "/api/agent" }.');
  const known = Object.keys(OPTION_RULES);
  for (const key of Object.keys(options)) {
    if (!known.includes(key))
      throw new TypeError(`AgentChat.mount: unknown option "${key}"; the options are ${known.join(', ')}.`);
  }
  for (const [key, [isValid, expected]] of Object.entries(OPTION_RULES)) {
    const value = options[key];
    if ((value !== undefined || key === 'endpoint') && !isValid(value)) {
      throw new TypeError(`AgentChat.mount: options.${key} must be ${expected}.`);
    }
  }
  return options as unknown as MountOptions;
}

/** Resolves the mount target; throws when the selector is invalid or matches nothing. */
export function resolveMountTarget(target: unknown, document: Document): Element {
  if (target instanceof Element) return target;
  if (typeof target !== 'string')
    throw new TypeError('AgentChat.mount: the target must be a CSS selector or an Element.');
  let element: Element | null = null;
  try {
    element = document.querySelector(target);
  } catch {
    // An invalid selector matches nothing; the message below says so.
  }
  if (!element) throw new Error(`AgentChat.mount: no element matches "${target}".`);
  return element;
}
