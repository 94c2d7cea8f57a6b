import type { AgentChatTheme } from '../agent-chat/agent-chat-theme.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { ICON_PATHS } from '../icon-paths.ts';
import { LAUNCHER_CSS } from './launcher.styles.ts';

/** Labels of the launcher's button and panel (part of the widget's strings, so each locale has them). */
export type LauncherStrings = Pick<AgentChatStrings, 'launcherOpen' | 'launcherClose' | 'launcherPanel'>;

/** Options of {@link createLauncher}. */
export interface CreateLauncherOptions {
  /** Where the launcher's host element is appended. */
  container: Element;
  /** The widget shown in the panel (slotted, so it keeps its own shadow root and styles). */
  panelContent: HTMLElement;
  strings: LauncherStrings;
  /** The widget's colour scheme, so the button and panel match it; unset follows `prefers-color-scheme`. */
  theme?: AgentChatTheme;
  /** The corner: `bottom-end` (the default: right in a left-to-right page, left in a right-to-left one) or `bottom-start`. */
  position?: LauncherPosition;
  /** Called after the panel opened or closed. */
  onToggle?: (isOpen: boolean) => void;
  /** The element to build the launcher in (default: a new `<div>`); given when it had to exist before the launcher's code arrived. */
  host?: HTMLElement;
}

/** Every corner the launcher can sit in (logical: `end` is the reading direction's end). */
export const LAUNCHER_POSITIONS = ['bottom-end', 'bottom-start'] as const;

/** A corner the launcher can sit in. */
export type LauncherPosition = (typeof LAUNCHER_POSITIONS)[number];

/** A mounted launcher: a floating button that opens and closes a panel holding the widget. */
export interface Launcher {
  /** The launcher's host element (carries the shadow root with the button and panel). */
  host: HTMLElement;
  isOpen(): boolean;
  /** Shows the panel and moves focus to the widget's composer (unless `focus: false`, e.g. opened at page load). */
  open(options?: { focus?: boolean }): void;
  /** Hides the panel; focus returns to the button when it was inside the panel. */
  close(): void;
  /** Removes the launcher and its listeners; the widget is removed with it. */
  destroy(): void;
}

/**
 * Builds the launcher in a shadow root of its own (styles adopted as constructable stylesheets,
 * so it works under `style-src 'self'` and host CSS cannot reach it). Escape closes the panel; the
 * button shows ✕ while it is open; below 480 px the panel fills the screen. Plain DOM, no Lit:
 * the script tag ships it as a sibling file (`agent-chat.launcher.js`) that needs nothing else.
 */
export function createLauncher(options: CreateLauncherOptions): Launcher {
  const { container, panelContent, strings } = options;
  const document = container.ownerDocument;
  const host = options.host ?? document.createElement('div');
  host.setAttribute('data-agent-chat-launcher', '');
  if (options.theme) host.setAttribute('theme', options.theme);
  host.setAttribute('position', options.position ?? 'bottom-end');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(LAUNCHER_CSS);
  root.adoptedStyleSheets = [sheet];
  host.append(panelContent);

  const panel = document.createElement('div');
  panel.id = 'panel';
  panel.setAttribute('part', 'launcher-panel');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', strings.launcherPanel);
  panel.append(document.createElement('slot'));
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('part', 'launcher-button');
  button.setAttribute('aria-controls', 'panel');
  const svgNamespace = 'http://www.w3.org/2000/svg';
  const icon = document.createElementNS(svgNamespace, 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('aria-hidden', 'true');
  const iconPath = document.createElementNS(svgNamespace, 'path');
  icon.append(iconPath);
  button.append(icon);
  root.append(panel, button);

  let isOpen = false;
  const update = (next: boolean): void => {
    const hasChanged = next !== isOpen;
    isOpen = next;
    host.toggleAttribute('open', isOpen);
    panel.hidden = !isOpen;
    button.setAttribute('aria-expanded', String(isOpen));
    button.setAttribute('aria-label', isOpen ? strings.launcherClose : strings.launcherOpen);
    iconPath.setAttribute('d', isOpen ? ICON_PATHS.close : ICON_PATHS.chat);
    if (hasChanged) options.onToggle?.(isOpen);
  };
  const launcher: Launcher = {
    host,
    isOpen: () => isOpen,
    open(openOptions) {
      update(true);
      if (openOptions?.focus === false) return;
      // The widget's public `input` part is its composer; focus lands where the person types.
      const input = panelContent.shadowRoot?.querySelector<HTMLElement>('[part~="input"]');
      (input ?? panelContent).focus();
    },
    close() {
      const hadFocus = host.matches(':focus-within') && document.activeElement !== null;
      update(false);
      if (hadFocus) button.focus();
    },
    destroy() {
      host.removeEventListener('keydown', onKeydown);
      host.remove();
    },
  };
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && isOpen) {
      event.stopPropagation();
      launcher.close();
    }
  };
  button.addEventListener('click', () => (isOpen ? launcher.close() : launcher.open()));
  host.addEventListener('keydown', onKeydown);
  update(false);
  container.append(host);
  return launcher;
}
