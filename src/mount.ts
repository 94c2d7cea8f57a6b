import { createAgentClient, type AgentClientHandle, type ClientStorage } from './core/index.ts';
import type { AgentChatElement } from './ui/agent-chat/agent-chat.ts';
import { resolveStrings } from './ui/i18n/resolve-strings.ts';
import { createLauncher, type Launcher } from './ui/launcher/create-launcher.ts';
import { resolveMountTarget, validateMountOptions, type MountOptions } from './mount-options.ts';

/** What `mount` returns: the element, its client, and the way to take both down again. */
export interface MountedAgentChat {
  /** The `<agent-chat>` element (inside the launcher's panel in `launcher` mode). */
  element: AgentChatElement;
  /** The element's client; the mount owns it and disposes it in `destroy()`. */
  client: AgentClientHandle;
  /** The floating button and panel in `launcher` mode; null when inline. */
  launcher: Launcher | null;
  /** Settles once the element is defined and the first bootstrap (and `sessionId` restore) is done; never rejects (errors show in the widget). */
  ready: Promise<void>;
  /** Removes the widget, disposes the client and frees the target for another mount. Idempotent. */
  destroy(): void;
}

const TAG_NAME = 'agent-chat';
/** Options that are properties of the element itself; one left undefined keeps the element's default. */
const ELEMENT_OPTIONS = ['locale', 'theme', 'strings', 'selectAttachments', 'getReferences', 'renderers'] as const;
const mounts = new WeakMap<Element, MountedAgentChat>();

/**
 * Mounts the chat widget into `target` (a CSS selector or an Element) with its own client.
 * Throws an error that says what to fix when the target is missing, already holds a mount, or
 * `options` are invalid. Defines `<agent-chat>` on first use when the host has not imported
 * `agent-chat/define` (the element then upgrades a moment later; `ready` settles after).
 */
export function mount(target: string | Element, options: MountOptions): MountedAgentChat {
  const document = globalThis.document;
  const host = resolveMountTarget(target, document);
  const valid = validateMountOptions(options);
  if (mounts.has(host)) {
    throw new Error('AgentChat.mount: the target already has a chat; destroy() that mount first.');
  }

  const defined = ensureDefined();
  const client = createAgentClient({
    endpoint: valid.endpoint,
    ...(valid.agentVersion ? { agentVersion: valid.agentVersion } : {}),
    ...(valid.persist ? persistenceFor(host) : {}),
  });
  const element = document.createElement(TAG_NAME) as AgentChatElement;
  element.client = client;
  for (const key of ELEMENT_OPTIONS) {
    if (valid[key] !== undefined) Object.assign(element, { [key]: valid[key] });
  }

  let launcher: Launcher | null = null;
  if (valid.mode === 'launcher') {
    const locale = valid.locale ?? globalThis.navigator?.language ?? 'en';
    launcher = createLauncher({
      container: host,
      panelContent: element,
      strings: resolveStrings(locale, valid.strings),
      ...(valid.theme ? { theme: valid.theme } : {}),
    });
  } else {
    host.append(element);
  }

  const ready = defined
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
    destroy() {
      if (isDestroyed) return;
      isDestroyed = true;
      if (launcher) launcher.destroy();
      else element.remove();
      client.dispose();
      mounts.delete(host);
    },
  };
  mounts.set(host, mounted);
  return mounted;
}

/** Resolves once `<agent-chat>` is defined, loading `define.ts` (the only place that defines it) if needed. */
function ensureDefined(): Promise<void> {
  if (customElements.get(TAG_NAME)) return Promise.resolve();
  return import('./define.ts').then(() => undefined);
}

/** `sessionStorage` under a key prefix per target (two persisted widgets on a page stay apart). */
function persistenceFor(host: Element): { storage?: ClientStorage; storagePrefix: string } {
  const storagePrefix = host.id ? `agent-chat:${host.id}:` : 'agent-chat:';
  try {
    return { storage: globalThis.sessionStorage, storagePrefix };
  } catch {
    // Storage disabled (sandboxed frame, privacy mode): the chat works, it just will not survive a reload.
    return { storagePrefix };
  }
}
