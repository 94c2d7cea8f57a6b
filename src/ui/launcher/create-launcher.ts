import { adoptStyles } from 'lit';
import { launcherStyles } from './launcher.styles.ts';

/** Labels of the launcher button (the widget's own strings do not cover it). */
export interface LauncherStrings {
  launcherOpen: string;
  launcherClose: string;
  launcherPanel: string;
}

/** The launcher's default labels per built-in locale (`zh*` → Simplified Chinese). */
export function resolveLauncherStrings(locale: string, overrides?: Partial<LauncherStrings>): LauncherStrings {
  const base: LauncherStrings = locale.toLowerCase().startsWith('zh')
    ? { launcherOpen: '打开聊天', launcherClose: '关闭聊天', launcherPanel: '聊天' }
    : { launcherOpen: 'Open chat', launcherClose: 'Close chat', launcherPanel: 'Chat' };
  return { ...base, ...overrides };
}

/** Options of {@link createLauncher}. */
export interface CreateLauncherOptions {
  /** Where the launcher's host element is appended. */
  container: Element;
  /** The widget shown in the panel (slotted, so it keeps its own shadow root and styles). */
  panelContent: HTMLElement;
  strings: LauncherStrings;
  theme?: string;
}

/** A mounted launcher: a floating button that opens and closes a panel holding the widget. */
export interface Launcher {
  /** The launcher's host element (carries the shadow root with the button and panel). */
  host: HTMLElement;
  isOpen(): boolean;
  /** Shows the panel and moves focus to the widget's composer. */
  open(): void;
  /** Hides the panel; focus returns to the button when it was inside the panel. */
  close(): void;
  /** Removes the launcher and its listeners; the widget is removed with it. */
  destroy(): void;
}

/**
 * Builds the launcher in a shadow root of its own (styles adopted as constructable stylesheets,
 * so it works under `style-src 'self'` and host CSS cannot reach it). Escape closes the panel.
 */
export function createLauncher(options: CreateLauncherOptions): Launcher {
  const document = options.container.ownerDocument;
  const host = document.createElement('div');
  host.setAttribute('data-agent-chat-launcher', '');
  if (options.theme) host.setAttribute('theme', options.theme);
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, [launcherStyles]);

  const panel = document.createElement('div');
  panel.setAttribute('part', 'launcher-panel');
  panel.id = 'panel';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', options.strings.launcherPanel);
  panel.hidden = true;
  panel.append(document.createElement('slot'));

  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('part', 'launcher-button');
  button.setAttribute('aria-controls', 'panel');
  button.append(createChatIcon(document));
  root.append(panel, button);
  host.append(options.panelContent);

  const render = (isOpen: boolean): void => {
    panel.hidden = !isOpen;
    button.setAttribute('aria-expanded', String(isOpen));
    button.setAttribute('aria-label', isOpen ? options.strings.launcherClose : options.strings.launcherOpen);
  };
  const launcher: Launcher = {
    host,
    isOpen: () => !panel.hidden,
    open() {
      render(true);
      // The widget's public `input` part is its composer; focus lands where the person types.
      const input = options.panelContent.shadowRoot?.querySelector<HTMLElement>('[part~="input"]');
      (input ?? options.panelContent).focus();
    },
    close() {
      const hadFocus = host.matches(':focus-within') && document.activeElement !== null;
      render(false);
      if (hadFocus) button.focus();
    },
    destroy() {
      button.removeEventListener('click', onClick);
      host.removeEventListener('keydown', onKeydown);
      host.remove();
    },
  };
  const onClick = (): void => (launcher.isOpen() ? launcher.close() : launcher.open());
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && launcher.isOpen()) {
      event.stopPropagation();
      launcher.close();
    }
  };
  button.addEventListener('click', onClick);
  host.addEventListener('keydown', onKeydown);
  render(false);
  options.container.append(host);
  return launcher;
}

function createChatIcon(document: Document): SVGSVGElement {
  const namespace = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(namespace, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(namespace, 'path');
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z');
  svg.append(path);
  return svg;
}
