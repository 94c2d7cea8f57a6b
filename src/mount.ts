import { createAgentClient, type AgentClientHandle, type FocusContext } from './core/index.ts';
import type { AttachMountTools } from './tools/attach-tools.ts';
import type { AgentChatElement } from './ui/agent-chat/agent-chat.ts';
import {
  createAgentChatEvent,
  type AgentChatEventDetails,
  type AgentChatEventName,
} from './ui/agent-chat/agent-chat-events.ts';
import { resolveStrings } from './ui/i18n/resolve-strings.ts';
import type { CreateLauncherOptions, Launcher } from './ui/launcher/create-launcher.ts';
import { resolveMountTarget, validateMountOptions, type MountOptions } from './mount-options.ts';
import { sessionPersistenceFor } from './session-persistence.ts';

/** What `mount` returns: the element, its client, what a product calls on them, and the way to take both down. */
export interface MountedAgentChat {
  /** The `<agent-chat>` element (inside the launcher's panel in `launcher` mode). */
  element: AgentChatElement;
  /** The element's client; the mount owns it and disposes it in `destroy()`. */
  client: AgentClientHandle;
  /** The floating button and panel in `launcher` mode; null when inline. */
  launcher: Launcher | null;
  /** Settles once the element is defined and the first bootstrap (and `sessionId` restore) is done; never rejects (errors show in the widget). */
  ready: Promise<void>;
  /** Sends `text` as if the person typed it (`agent-chat-send` fires first); rejects when the send fails (the widget shows why). */
  send(text: string): Promise<void>;
  /**
   * Sets the page context sent with every next message (`{ title?, text }`; null: none), until
   * changed; the `getContext` option, when given, wins (docs/embedding.md, "Page context").
   */
  setContext(context: FocusContext | null): void;
  /** Starts a new conversation (`agent-chat-session` fires with `null`); the old one stays restorable by its id. */
  newConversation(): void;
  /** Opens the launcher's panel and focuses the composer (inline: focuses the composer). */
  open(): void;
  /** Closes the launcher's panel (inline: nothing). */
  close(): void;
  /** Calls `listener` with the `detail` of each `name` event until the returned function is called. */
  on<Name extends AgentChatEventName>(name: Name, listener: (detail: AgentChatEventDetails[Name]) => void): () => void;
  /** Removes the widget, disposes the client and frees the target for another mount. Idempotent. */
  destroy(): void;
}

/** `mount` as `createMount` returns it. */
export type MountFunction = (target: string | Element, options: MountOptions) => MountedAgentChat;

/** Options of {@link createMount}. */
export interface CreateMountOptions {
  /**
   * Builds the launcher of a `launcher` mode mount (the script tag's builds it once its sibling
   * file `agent-chat.launcher.js` has arrived, embed/index.ts).
   */
  createLauncher: (options: CreateLauncherOptions) => Launcher;
  /**
   * Returns what runs the browser tools, or `undefined` when they are not loaded (asked at each
   * `mount` with `tools`; the script tag's runner is its own file, `agent-chat-tools.js`).
   */
  findTools: () => AttachMountTools | undefined;
}

const TAG_NAME = 'agent-chat';
/** Options that are properties of the element itself; one left undefined keeps the element's default. */
const ELEMENT_OPTIONS = [
  'locale',
  'theme',
  'strings',
  'avatarUrl',
  'greeting',
  'suggestions',
  'collapseReasoning',
  'selectAttachments',
  'attachments',
  'uploadAttachment',
  'getReferences',
  'renderers',
  'conversations',
  'getContext',
  'effortPicker',
  'feedback',
  'showErrorReference',
] as const;
/** Languages written right to left: a widget in one of them mirrors even on a left-to-right page. */
const RTL_LANGUAGE = /^(ar|fa|he|iw|ps|sd|ug|ur|yi)\b/i;
const mounts = new WeakMap<Element, MountedAgentChat>();

/**
 * Returns `mount` with the given sources of the launcher and the browser tools. `mount(target,
 * options)` mounts the chat widget into `target` (a CSS selector or an Element) with its own
 * client. It throws an error that says what to fix when the target is missing, already holds a
 * mount, `options` are invalid, or `tools` are asked for and the runner is not loaded. Only a
 * mount with `tools` starts a runner, and `destroy()` revokes it. It defines `<agent-chat>` on first
 * use when the host has not imported `agent-chat/define` (the element then upgrades a moment
 * later; `ready` settles after).
 */
export function createMount(mountOptions: CreateMountOptions): MountFunction {
  return (target, options) => mountWidget(target, options, mountOptions);
}

function mountWidget(
  target: string | Element,
  options: MountOptions,
  { createLauncher, findTools }: CreateMountOptions,
): MountedAgentChat {
  const document = globalThis.document;
  const host = resolveMountTarget(target, document);
  const valid = validateMountOptions(options);
  if (mounts.has(host)) {
    throw new Error('AgentChat.mount: the target already has a chat; destroy() that mount first.');
  }
  // A runner only when the host asks for one (`toolRunner` without `tools` is a mistake the runner names).
  const attachTools =
    valid.tools || valid.toolRunner ? required(findTools(), 'options.tools needs agent-chat-tools.js') : undefined;

  const locale = valid.locale ?? globalThis.navigator?.language ?? 'en';
  const client = createAgentClient({
    endpoint: valid.endpoint,
    locale,
    syncTabs: true,
    ...(valid.agentVersion ? { agentVersion: valid.agentVersion } : {}),
    ...(valid.credentials ? { credentials: valid.credentials } : {}),
    ...(valid.headers ? { headers: valid.headers } : {}),
    ...(valid.persist === false ? {} : sessionPersistenceFor(host.id)),
  });
  const element = document.createElement(TAG_NAME) as AgentChatElement;
  element.client = client;
  for (const key of ELEMENT_OPTIONS) {
    if (valid[key] !== undefined) Object.assign(element, { [key]: valid[key] });
  }
  if (valid.title !== undefined) element.headerTitle = valid.title;
  // Plugged into the client before its first bootstrap, so no event of a browser call goes unfolded.
  const toolRunner = attachTools?.({ client, element }, valid);
  // The element is defined and the runner plugged in: what the widget sends declares the browser tools.
  const started = Promise.all([ensureDefined(), toolRunner]);

  let launcher: Launcher | null = null;
  if (valid.mode === 'launcher') {
    launcher = createLauncher({
      container: host,
      panelContent: element,
      strings: resolveStrings(locale, valid.strings),
      ...(valid.theme ? { theme: valid.theme } : {}),
      ...(valid.position ? { position: valid.position } : {}),
      onToggle: (isOpen) =>
        element.dispatchEvent(
          createAgentChatEvent(isOpen ? 'agent-chat-launcher-open' : 'agent-chat-launcher-close', null),
        ),
    });
    element.onClose = () => launcher?.close();
    if (RTL_LANGUAGE.test(locale)) launcher.host.dir = 'rtl';
    if (valid.startOpen) launcher.open({ focus: false });
  } else {
    if (RTL_LANGUAGE.test(locale)) element.dir = 'rtl';
    host.append(element);
  }

  const ready = started
    .then(() => client.bootstrap())
    .then(() => (valid.sessionId ? client.restore(valid.sessionId) : undefined))
    .then(
      () => undefined,
      // The client put the failure into its state, where the widget shows it with Retry.
      () => undefined,
    );

  let isDestroyed = false;
  const mounted: MountedAgentChat = {
    element,
    client,
    launcher,
    ready,
    send: (text) => started.then(() => element.send(text)),
    setContext(context) {
      element.context = context;
    },
    newConversation: () => element.newConversation(),
    open() {
      if (launcher) launcher.open();
      else element.shadowRoot?.querySelector<HTMLElement>('[part~="input"]')?.focus();
    },
    close: () => launcher?.close(),
    on(name, listener) {
      const forward = (event: Event): void =>
        listener((event as CustomEvent<AgentChatEventDetails[typeof name]>).detail);
      element.addEventListener(name, forward);
      return () => element.removeEventListener(name, forward);
    },
    destroy() {
      if (isDestroyed) return;
      isDestroyed = true;
      if (launcher) launcher.destroy();
      else element.remove();
      mounts.delete(host);
      // The runner disconnects its executor through the client, so the client goes after it.
      if (toolRunner === undefined) client.dispose();
      else
        void Promise.resolve(toolRunner)
          .then((runner) => runner.stop())
          .finally(() => client.dispose());
    },
  };
  mounts.set(host, mounted);
  return mounted;
}

/** Returns `part`, a part of the widget the mount needs; throws when its file of the script-tag build is not loaded. */
function required<Part>(part: Part | undefined, need: string): Part {
  if (part === undefined) {
    throw new Error(`AgentChat.mount: ${need}: load it (its integrity is in manifest.json) before mount runs.`);
  }
  return part;
}

/** Resolves once `<agent-chat>` is defined, loading `define.ts` (the only place that defines it) if needed. */
function ensureDefined(): Promise<void> {
  if (customElements.get(TAG_NAME)) return Promise.resolve();
  // The script tag's entry imports define.ts up front (embed/index.ts): its build has no import to load.
  return __SCRIPT_TAG_BUILD__ ? Promise.resolve() : import('./define.ts').then(() => undefined);
}
