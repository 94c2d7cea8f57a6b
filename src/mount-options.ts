import type { AgentChatElement } from './ui/agent-chat/agent-chat.ts';
import type { LauncherStrings } from './ui/launcher/create-launcher.ts';

/** The widget's strings a product may override (every key optional). */
export type MountStrings = NonNullable<AgentChatElement['strings']> & Partial<LauncherStrings>;

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
  theme?: 'light' | 'dark' | 'auto';
  /** Overrides of individual strings (see `AgentChatStrings`, plus the launcher's labels). */
  strings?: MountStrings;
  /** Keeps the conversation and stream cursor in `sessionStorage`, so a reload resumes the run. */
  persist?: boolean;
  /** `inline` renders into the target; `launcher` adds a floating button that opens the panel. */
  mode?: 'inline' | 'launcher';
  /** Hook: lets the user pick references sent with the next message as `contextRefs`. */
  selectAttachments?: AgentChatElement['selectAttachments'];
  /** Hook: returns source cards shown under an assistant message (safe URLs only). */
  getReferences?: AgentChatElement['getReferences'];
  /** Trusted product code that renders custom tool cards, keyed by tool name. */
  renderers?: AgentChatElement['renderers'];
}

const isString = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
const isFunction = (value: unknown): boolean => typeof value === 'function';
const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (...allowed: string[]): OptionRule => [
  (value) => allowed.includes(value as string),
  (value) => `one of ${allowed.map((item) => `"${item}"`).join(', ')}, not ${JSON.stringify(value)}`,
];

/** How to check one option: a test, and what the option must be (said when the test fails). */
type OptionRule = [isValid: (value: unknown) => boolean, expected: string | ((value: unknown) => string)];

/** Every option in documentation order, with its check (`endpoint` is also required and parsed). */
const OPTION_RULES: Record<keyof MountOptions, OptionRule> = {
  endpoint: [isString, 'a non-empty string'],
  agentVersion: [isString, 'a non-empty string: an agent version id such as "agv_34"'],
  sessionId: [isString, 'a non-empty string: a session id such as "ses_01G…" returned by the server'],
  locale: [isString, 'a non-empty string: a BCP 47 tag such as "en" or "zh-CN"'],
  theme: oneOf('light', 'dark', 'auto'),
  strings: [isObject, 'an object of string overrides, e.g. { send: "Ask" }'],
  persist: [(value) => typeof value === 'boolean', 'true or false'],
  mode: oneOf('inline', 'launcher'),
  selectAttachments: [isFunction, 'a function'],
  getReferences: [isFunction, 'a function'],
  renderers: [(value) => typeof value === 'object' && value !== null, 'an object mapping tool names to render functions'],
};

/**
 * Checks `options` from untyped callers (the script-tag global) and returns them typed. Throws a
 * `TypeError` whose message names the option and says what to pass instead.
 */
export function validateMountOptions(options: unknown): MountOptions {
  if (!isObject(options)) {
    throw new TypeError('AgentChat.mount: pass an options object as the second argument, e.g. mount("#chat", { endpoint: "/api/agent" }).');
  }
  const record = options as Record<string, unknown>;
  const known = Object.keys(OPTION_RULES);
  const unknown = Object.keys(record).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new TypeError(`AgentChat.mount: unknown option ${unknown.map((key) => `"${key}"`).join(', ')}; the options are ${known.join(', ')}.`);
  }
  if (!isString(record.endpoint)) {
    throw new TypeError('AgentChat.mount: options.endpoint is required: the base URL of your agent proxy, e.g. "/api/agent".');
  }
  checkEndpoint(record.endpoint as string);
  for (const [key, [isValid, expected]] of Object.entries(OPTION_RULES)) {
    const value = record[key];
    if (value !== undefined && !isValid(value)) {
      throw new TypeError(`AgentChat.mount: options.${key} must be ${typeof expected === 'string' ? expected : expected(value)}.`);
    }
  }
  for (const [key, value] of Object.entries(record.strings ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`AgentChat.mount: options.strings.${key} must be a string.`);
  }
  return record as unknown as MountOptions;
}

/** Resolves the mount target; throws when the selector is invalid or matches nothing. */
export function resolveMountTarget(target: unknown, document: Document): Element {
  if (typeof target === 'string') {
    let element: Element | null;
    try {
      element = document.querySelector(target);
    } catch {
      throw new TypeError(`AgentChat.mount: "${target}" is not a valid CSS selector.`);
    }
    if (!element) {
      throw new Error(`AgentChat.mount: no element matches "${target}"; check the selector, or mount after the element exists (e.g. on DOMContentLoaded).`);
    }
    return element;
  }
  if (target instanceof Element) return target;
  throw new TypeError('AgentChat.mount: the first argument must be a CSS selector or an Element.');
}

/** A short description of `element` for error messages (`#id`, else the tag name). */
export function describeElement(element: Element): string {
  return element.id ? `#${element.id}` : `<${element.localName}>`;
}

function checkEndpoint(endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint, 'http://base.invalid');
  } catch {
    throw new TypeError(`AgentChat.mount: options.endpoint "${endpoint}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`AgentChat.mount: options.endpoint must be an http(s) URL or a path such as "/api/agent", not "${endpoint}".`);
  }
  if (url.search || url.hash) {
    throw new TypeError('AgentChat.mount: options.endpoint must not carry a query or fragment (never put tokens in URLs); authenticate with your own cookie or session.');
  }
}
