import { adoptStyles, html, render } from 'lit';
import type { AgentChatTheme } from '../agent-chat/agent-chat-theme.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { ICON_PATHS } from '../icons.ts';
import { launcherStyles } from './launcher.styles.ts';

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
 * button shows ✕ while it is open; below 480 px the panel fills the screen.
 */
export function createLauncher(options: CreateLauncherOptions): Launcher {
  const { container, panelContent, strings } = options;
  const document = container.ownerDocument;
  const host = document.createElement('div');
  host.setAttribute('data-agent-chat-launcher', '');
  if (options.theme) host.setAttribute('theme', options.theme);
  host.setAttribute('position', options.position ?? 'bottom-end');
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, [launcherStyles]);
  host.append(panelContent);

  let isOpen = false;
  const update = (next: boolean): void => {
    const hasChanged = next !== isOpen;
    isOpen = next;
    host.toggleAttribute('open', isOpen);
    render(
      html`<div part="launcher-panel" id="panel" role="dialog" aria-label=${strings.launcherPanel} ?hidden=${!isOpen}><slot></slot></div>
        <button type="button" part="launcher-button" aria-controls="panel" aria-expanded=${isOpen}
          aria-label=${isOpen ? strings.launcherClose : strings.launcherOpen} @click=${() => (isOpen ? launcher.close() : launcher.open())}>
          <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${isOpen ? ICON_PATHS.close : ICON_PATHS.chat}></path></svg>
        </button>`,
      root,
    );
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
      if (hadFocus) root.querySelector('button')?.focus();
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
  host.addEventListener('keydown', onKeydown);
  update(false);
  container.append(host);
  return launcher;
}
