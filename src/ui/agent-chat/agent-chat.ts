import { adoptStyles, html, LitElement, nothing, type CSSResult, type PropertyValues, type TemplateResult } from 'lit';
import {
  createInitialClientState,
  isTerminalRunStatus,
  type AgentClient,
  type ApprovalDecision,
  type ClientState,
  type ContextRef,
  type FocusContext,
  type ReasoningEffort,
  type SnapshotMessage,
} from '../../core/index.ts';
import { findConversationsPanelLoader } from '../../parts/conversations/conversations-on-demand.ts';
import type { UploadToProduct } from '../attachments/attaching.ts';
import type { MessageFiles } from '../attachments/tray-state.ts';
import { Composer } from '../composer/composer.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { resolveStrings } from '../i18n/resolve-strings.ts';
import { describeWait, isAwaitingAnswer } from '../message-list/awaiting-answer.ts';
import { hasAnswerStarted } from '../message-list/build-transcript-items.ts';
import { renderMessageList, type MessageReference, type ToolCardRenderer } from '../message-list/message-list.ts';
import { RowChunks } from '../message-list/row-chunks.ts';
import { renderChatHeader, renderEmptyState } from './chat-header.ts';
import { renderErrorBox } from './error-box.ts';
import { LifecycleEventTracker } from './lifecycle-events.ts';
import { createAgentChatEvent, type AgentChatEventDetails, type AgentChatEventName } from './agent-chat-events.ts';
import type { AgentChatTheme } from './agent-chat-theme.ts';
import { ToolCardsController } from './tool-cards-controller.ts';
import { createTurnActionsFor } from './turn-actions-for.ts';
import { ClientController } from './client-controller.ts';
import type { OlderMessagesController } from './older-messages-controller.ts';
import { ScrollPinController } from './scroll-pin-controller.ts';
import { StateChangeTracker } from './state-changes.ts';
// The element's stylesheets, together: adjacent in the bundle, they gzip as one.
import { hostStyles } from '../styles/host.styles.ts';
import { agentChatStyles } from './agent-chat.styles.ts';
import { messageListStyles } from '../message-list/message-list.styles.ts';
import { reasoningPanelStyles } from '../reasoning-panel/reasoning-panel.styles.ts';
import { composerStyles } from '../composer/composer.styles.ts';

/**
 * `<agent-chat>`: the chat widget. It renders the state of the `AgentClient` in `client` and calls
 * its actions; it holds no protocol logic. Set `client` from host code (it is a property, not an
 * attribute); the element subscribes while connected and reports page visibility and
 * online/offline to the client.
 *
 * `renderers` maps a tool name to a function that renders that tool's card. They are trusted
 * product code: whatever they return is put into the widget as is, so they must not render model
 * output as HTML.
 *
 * The element has no slots: everything it shows comes from the client's state. Its events bubble
 * and are composed; their names and detail types are in `HTMLElementEventMap` (`agent-chat-events.ts`).
 *
 * @tagname agent-chat
 *
 * @fires {CustomEvent<AgentChatSendDetail>} agent-chat-send - Before a message is sent: `{ text, contextRefs, attachments }`.
 * @fires {CustomEvent<AgentChatApproveDetail>} agent-chat-approve - Approval answered: `{ interruptId, decision }`.
 * @fires {CustomEvent<AgentChatErrorDetail>} agent-chat-error - A new error is shown; `detail` is the `ClientError`.
 * @fires {CustomEvent<AgentChatRunStartDetail>} agent-chat-run-start - A run started: `{ runId }`.
 * @fires {CustomEvent<AgentChatRunFinishDetail>} agent-chat-run-finish - A run ended: `{ runId, status }`.
 * @fires {CustomEvent<AgentChatMessageDetail>} agent-chat-message - An answer finished: `{ message }`.
 * @fires {CustomEvent<AgentChatToolDetail>} agent-chat-tool-start - A tool call started: `{ toolCall }`.
 * @fires {CustomEvent<AgentChatToolDetail>} agent-chat-tool-end - A tool call ended: `{ toolCall }`.
 * @fires {CustomEvent<AgentChatApprovalDetail>} agent-chat-approval-request - An approval is asked for: `{ interrupt }`.
 * @fires {CustomEvent<AgentChatApprovalDetail>} agent-chat-approval-resolve - An approval was answered, expired or cancelled: `{ interrupt }`.
 * @fires {CustomEvent<AgentChatSessionDetail>} agent-chat-session - The conversation changed: `{ sessionId }` (null for a new one).
 * @fires {CustomEvent<AgentChatLauncherDetail>} agent-chat-launcher-open - The launcher panel opened (`mount` in launcher mode).
 * @fires {CustomEvent<AgentChatLauncherDetail>} agent-chat-launcher-close - The launcher panel closed (`mount` in launcher mode).
 *
 * @csspart header - The header: avatar, title, "Conversations", "New conversation" and (in a launcher) close.
 * @csspart avatar - The header's avatar image, shown when `avatarUrl` is set (or bootstrap has one).
 * @csspart conversations-button - The header's "Conversations" button, shown when the conversations panel is loaded.
 * @csspart new-conversation-button - The header's "New conversation" button.
 * @csspart close-button - The header's close button, shown in a launcher panel.
 * @csspart empty-state - The greeting and suggestions of an empty conversation.
 * @csspart suggestion - One suggestion chip; pressing it sends its text.
 * @csspart transcript - The scrolling conversation log.
 * @csspart message - Every message, which is also a `user-message` or an `assistant-message`.
 * @csspart user-message - A message the person sent.
 * @csspart assistant-message - A message from the agent.
 * @csspart working - "Thinking…" with three pulsing dots, in the answer's place from a send until its first row.
 * @csspart reasoning - A reasoning panel.
 * @csspart tool-card - A tool call card.
 * @csspart approval-card - An approval request.
 * @csspart allow-button - The approval request's Allow button.
 * @csspart deny-button - The approval request's Deny button.
 * @csspart message-actions - The actions under a finished answer: Copy, Regenerate, Edit (`details.turn-edit`), the versions of the turn (`.turn-versions`, "‹ 2 / 3 ›"), and with `feedback` the thumbs (`aria-pressed` on the kept vote) and their comment (`details.feedback-comment`). They render once `agent-chat.turn-actions.js` has loaded.
 * @csspart error - A failed request or stream, at the end of the transcript until it is handled.
 * @csspart retry-button - Retry, on the error or the failed run it can help.
 * @csspart run-error - A failed run's error, kept after its turn in the transcript.
 * @csspart status - The status line ("Reconnecting…", "Stopping…", "Offline").
 * @csspart jump-button - "Jump to latest", shown when the person scrolled up.
 * @csspart composer - The composer form.
 * @csspart input - The composer's text field.
 * @csspart send-button - The composer's Send button (an ↑ icon).
 * @csspart stop-button - The composer's Stop button (a ■ icon), in Send's place while a run is active.
 * @csspart attach-button - The composer's attach button (📎), shown when files can be attached or `selectAttachments` is set.
 * @csspart effort-select - The composer's reasoning effort picker, shown when `effortPicker` is set and the model offers levels.
 *
 * @cssproperty --agent-chat-font-family - Text font. Default: system UI fonts.
 * @cssproperty --agent-chat-mono-font-family - Code and arguments font. Default: `ui-monospace, …`.
 * @cssproperty --agent-chat-font-size-caption - Code labels. Default: `11px`.
 * @cssproperty --agent-chat-font-size-small - Notes, code, labels. Default: `12px`.
 * @cssproperty --agent-chat-font-size-control - Buttons. Default: `13px`.
 * @cssproperty --agent-chat-font-size - Base text size. Default: `14px`.
 * @cssproperty --agent-chat-font-size-title - The header's title. Default: `15px`.
 * @cssproperty --agent-chat-font-size-display - The greeting, top headings. Default: `17px`.
 * @cssproperty --agent-chat-line-height - Default: `1.5`.
 * @cssproperty --agent-chat-height - The widget's height. Default: `560px`.
 * @cssproperty --agent-chat-radius-small - Code, argument values. Default: `4px`.
 * @cssproperty --agent-chat-radius - Corner radius of cards. Default: `12px`.
 * @cssproperty --agent-chat-radius-bubble - The person's bubbles and the composer. Default: `18px`.
 * @cssproperty --agent-chat-spacing - The spacing unit the scale derives from. Default: `8px`.
 * @cssproperty --agent-chat-space-xs - ½ × the unit. Default: `4px`.
 * @cssproperty --agent-chat-space-s - ¾ × the unit. Default: `6px`.
 * @cssproperty --agent-chat-space-m - The unit. Default: `8px`.
 * @cssproperty --agent-chat-space-l - 1½ × the unit. Default: `12px`.
 * @cssproperty --agent-chat-space-xl - 2 × the unit. Default: `16px`.
 * @cssproperty --agent-chat-shadow - Elevation of what floats over the transcript. Default: `0 1px 4px rgb(0 0 0 / 0.2)`.
 * @cssproperty --agent-chat-color-background - Default: `#ffffff` (dark `#0d1117`).
 * @cssproperty --agent-chat-color-surface - Cards and code. Default: `#f6f8fa` (dark `#161b22`).
 * @cssproperty --agent-chat-color-user-message - User bubbles. Default: `#eaf1fb` (dark `#1c2a3d`).
 * @cssproperty --agent-chat-color-text - Default: `#1f2328` (dark `#e6edf3`).
 * @cssproperty --agent-chat-color-text-muted - Default: `#57606a` (dark `#9da7b3`).
 * @cssproperty --agent-chat-color-border - Default: `#d0d7de` (dark `#3d444d`).
 * @cssproperty --agent-chat-color-accent - Primary buttons, links. Default: `#0550ae` (dark `#79c0ff`).
 * @cssproperty --agent-chat-color-on-accent - Text on accent. Default: `#ffffff` (dark `#0d1117`).
 * @cssproperty --agent-chat-color-danger - Errors. Default: `#b42318` (dark `#ff8a80`).
 * @cssproperty --agent-chat-color-success - Default: `#1a7f37` (dark `#56d364`).
 * @cssproperty --agent-chat-color-warning - Approvals, truncation. Default: `#8a4b00` (dark `#e3b341`).
 * @cssproperty --agent-chat-color-focus - Focus ring. Default: `#0969da` (dark `#79c0ff`).
 */
export class AgentChatElement extends LitElement {
  static override properties = {
    client: { attribute: false },
    locale: { type: String },
    theme: { type: String, reflect: true },
    strings: { attribute: false },
    collapseReasoning: { attribute: false },
    headerTitle: { attribute: false },
    avatarUrl: { attribute: false },
    greeting: { attribute: false },
    suggestions: { attribute: false },
    onClose: { attribute: false },
    selectAttachments: { attribute: false },
    getReferences: { attribute: false },
    renderers: { attribute: false },
    conversations: { attribute: false },
    isSheetOpen: { state: true },
    getContext: { attribute: false },
    context: { attribute: false },
    effortPicker: { attribute: false },
    feedback: { attribute: false },
    showErrorReference: { attribute: false },
    attachments: { attribute: false },
    uploadAttachment: { attribute: false },
    isContextMissing: { state: true },
    announcement: { state: true },
  };

  static override styles = [hostStyles, agentChatStyles, messageListStyles, reasoningPanelStyles, composerStyles];

  /** The conversation's client; the element subscribes to it while connected. */
  declare client: AgentClient | undefined;
  /** BCP 47 locale for strings and times; defaults to `navigator.language`. */
  declare locale: string;
  /** The colour scheme (reflected to the `theme` attribute); `auto` follows `prefers-color-scheme`. */
  declare theme: AgentChatTheme;
  /** Overrides for any built-in string. */
  declare strings: Partial<AgentChatStrings> | undefined;
  /** Whether a reasoning panel collapses once the answer starts. Default true. */
  declare collapseReasoning: boolean;
  /** The header's title; defaults to the agent's name from bootstrap (mount option `title`). */
  declare headerTitle: string | undefined;
  /** The header's avatar image URL (trusted product input; allow it in the page's `img-src`); defaults to bootstrap's `agent.avatarUrl`. */
  declare avatarUrl: string | undefined;
  /** The empty conversation's greeting; defaults to the locale's. */
  declare greeting: string | undefined;
  /** Suggestion chips of the empty conversation; pressing one sends its text. */
  declare suggestions: readonly string[];
  /** When set (a launcher panel), the header shows a close button that calls it. */
  declare onClose: (() => void) | undefined;
  /** The product's reference picker; what it returns is sent as `contextRefs`. */
  declare selectAttachments: (() => Promise<ContextRef[]>) | undefined;
  /** Source cards for a finished assistant message; only http(s) URLs are shown. */
  declare getReferences: ((message: SnapshotMessage) => MessageReference[]) | undefined;
  /** Custom tool cards by tool name (trusted product code, see the class documentation). */
  declare renderers: Record<string, ToolCardRenderer> | undefined;
  /**
   * Whether the header offers the conversations sheet once `<agent-chat-conversations>` is defined
   * (`defineConversationsPanel()`), or at once with the script tag, which loads the panel's file
   * `agent-chat.conversations.js` on first open. Default true.
   */
  declare conversations: boolean;
  declare protected isSheetOpen: boolean;
  /**
   * The page context of each send, asked for at each send (mount option `getContext`): what it
   * resolves to goes with the message as `focus` (null: none). When set it wins over `context`.
   * When it throws, takes longer than 5 s or gives no `{ text }`, the message goes without context
   * and the status line says so until the next send.
   */
  declare getContext: (() => Promise<FocusContext | null>) | undefined;
  /** A fixed page context for every next send while `getContext` is unset (the handle's `setContext`). */
  declare context: FocusContext | null | undefined;
  /** Shows a reasoning effort picker in the composer when the model offers levels. Default false. */
  declare effortPicker: boolean | undefined;
  /** Offers thumbs up and down (and a comment) under each finished answer (mount option `feedback`). Default true. */
  declare feedback: boolean | undefined;
  /**
   * Shows an error's reference (what support asks for) as a line of its own instead of behind a
   * Details disclosure, for internal tools (mount option `showErrorReference`). Default false.
   */
  declare showErrorReference: boolean | undefined;
  /**
   * `false` offers no files even when the server keeps them (bootstrap's
   * `capabilities.attachments`); the product's picker (`selectAttachments`) stays. Default true.
   */
  declare attachments: boolean | undefined;
  /**
   * Uploads a file the person attached to the product's own storage instead of the reference
   * server's, resolving with the reference that goes with the message as a `contextRef`; call
   * `onProgress` with the uploaded share in [0, 1] and stop when `signal` aborts. Files are
   * offered with it even when the server keeps none.
   */
  declare uploadAttachment: UploadToProduct | undefined;
  /** The last send went without context because `getContext` failed (the status line says so). */
  declare protected isContextMissing: boolean;
  declare protected announcement: string;

  #clientController = new ClientController(this, (state) => this.#applyStateEffects(state));
  #scrollTargets = {
    transcript: () => this.renderRoot?.querySelector<HTMLElement>('.transcript') ?? null,
    content: () => this.renderRoot?.querySelector('.transcript-content') ?? null,
    client: () => this.client,
  };
  #scrollPin = new ScrollPinController(this, this.#scrollTargets);
  /** Arrives with the turn actions' file; added after the scroll pin, so a pinned transcript is at its bottom before it looks at the top. */
  #olderMessages: OlderMessagesController | undefined;
  #rowChunks = new RowChunks();
  // The tool cards' and the turn actions' styles arrive with them (files of their own), beside the element's.
  #addedStyles: CSSResult[] = [];
  #addStyles = (styles: CSSResult[]): void => {
    this.#addedStyles.push(...styles);
    adoptStyles(this.renderRoot as ShadowRoot, [...AgentChatElement.elementStyles, ...this.#addedStyles]);
  };
  #toolCards = new ToolCardsController(this, this.#addStyles);
  #turnActionsFor = createTurnActionsFor(this, (actions) => {
    this.#addStyles([actions.styles]);
    this.#olderMessages = new actions.OlderMessagesController(this, {
      ...this.#scrollTargets,
      isFollowing: () => this.#scrollPin.isFollowing,
    });
  });
  #composer = new Composer(this, {
    send: (text, files) => this.#send(text, files),
    stop: () => this.#stop(),
    readAttachments: () => this,
    adoptStyles: this.#addStyles,
  });
  #reasoningOverrides = new Map<string, boolean>();
  #stateChanges = new StateChangeTracker();
  /** Whether the state last applied awaits an answer that shows nothing yet (the working row; a new wait is announced once). */
  #isAwaitingAnswer = false;
  #lifecycle = new LifecycleEventTracker();
  /** The next render that brings time-based labels up to date. */
  #updateTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    // client, strings, selectAttachments, getReferences and renderers start undefined.
    this.locale = typeof navigator === 'undefined' ? 'en' : navigator.language;
    this.theme = 'auto';
    this.collapseReasoning = true;
    this.suggestions = [];
    this.conversations = true;
    this.isSheetOpen = false;
    // The panel's file may load after the widget renders: the header's button appears then.
    void customElements.whenDefined(CONVERSATIONS_TAG).then(() => this.requestUpdate());
    this.isContextMissing = false;
    this.announcement = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client')) this.#clientController.setClient(this.client);
    this.#applyStateEffects(this.#state());
  }

  /** Sends `text` as if the person had typed it (the mounted handle's `send`); rejects when the send fails. */
  async send(text: string): Promise<void> {
    await this.#send(text, {});
  }

  /** Starts a new conversation (the header's button; the handle's `newConversation`) and focuses the composer. */
  newConversation(): void {
    this.client?.newSession();
    this.isContextMissing = false;
    this.#reasoningOverrides.clear();
    this.#composer.focus();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#updateTimer);
    this.#updateTimer = undefined;
  }

  protected override render(): TemplateResult {
    const state = this.#state();
    const strings = resolveStrings(this.locale, this.strings);
    const now = Date.now();
    const wait = this.#isAwaitingAnswer ? describeWait(state, strings, now, this.locale) : null;
    // Time moves what some rows say (a retry's countdown, an open approval's "expires in …"): render again each second.
    if (wait?.isRetrying || state.interrupts.some((item) => item.state === 'open' && item.expiresAt))
      this.#updateTimer ??= setTimeout(() => {
        this.#updateTimer = undefined;
        this.requestUpdate();
      }, 1000);
    const status = state.isStopping
      ? strings.stopping
      : state.connection === 'reconnecting'
        ? strings.reconnecting
        : state.connection === 'offline'
          ? strings.offline
          : this.isContextMissing
            ? strings.contextFailed
            : '';
    const isEmpty = state.messages.length === 0 && state.pendingSend === null;
    const hasSheet =
      this.conversations &&
      (customElements.get(CONVERSATIONS_TAG) !== undefined || findConversationsPanelLoader() !== undefined);
    const isSheetOpen = hasSheet && this.isSheetOpen;
    return html`<div class="content" ?inert=${isSheetOpen} @dragover=${this.#composer.onDragOver} @drop=${this.#composer.onDrop}>${renderChatHeader(
      {
        title: this.headerTitle ?? state.bootstrap?.agent.name ?? strings.assistant,
        avatarUrl: this.avatarUrl ?? state.bootstrap?.agent.avatarUrl,
        strings,
        canStartNew: !isEmpty || state.sessionId !== null,
        onNewConversation: () => this.newConversation(),
        onConversations: hasSheet ? this.#openSheet : undefined,
        onClose: this.onClose,
      },
    )}
      <div part="status" class="status" role="status">${status}</div>
      <div part="transcript" class="transcript" role="log" aria-live="off" aria-label=${strings.transcriptLabel} tabindex="0" @scroll=${this.#onScroll} @wheel=${this.#personInput} @touchmove=${this.#personInput} @keydown=${this.#personInput} @pointerdown=${this.#personInput}>
        ${
          state.hasOlderMessages
            ? html`<div class="older-status muted" role="status">${state.isLoadingOlderMessages ? strings.loadingOlder : ''}</div>`
            : nothing
        }
        <div class="transcript-content">
          ${
            isEmpty
              ? renderEmptyState({
                  greeting: this.greeting ?? strings.greeting,
                  suggestions: this.suggestions,
                  strings,
                  onSuggestion: (text) => void this.send(text).catch(() => undefined),
                })
              : nothing
          }
          ${renderMessageList({
            state,
            workingLabel: wait?.label ?? null,
            strings,
            locale: this.locale,
            now,
            toolCards: this.#toolCards.statusFor(state),
            onRetryToolCards: () => {
              this.#composer.focus();
              this.#toolCards.retry();
            },
            turnActions: this.#turnActionsFor(state),
            client: this.client,
            feedback: this.feedback,
            showErrorReference: this.showErrorReference,
            isReasoningOpen: (message, index) => this.#isReasoningOpen(state, message, index),
            onToggleReasoning: (messageId, isOpen) => {
              this.#reasoningOverrides.set(messageId, isOpen);
              this.requestUpdate();
            },
            onDecide: (interruptId, decision) => this.#decide(interruptId, decision),
            onRetry: this.#retry,
            renderers: this.renderers,
            getReferences: this.getReferences,
            rowChunks: this.#rowChunks,
          })}
          ${
            state.error && state.error.source !== 'run'
              ? renderErrorBox({
                  error: state.error,
                  strings,
                  isReferenceShown: this.showErrorReference,
                  onRetry: this.#retry,
                })
              : nothing
          }
        </div>
      </div>
      ${
        this.#scrollPin.isJumpShown
          ? html`<button part="jump-button" class="jump-button" @click=${this.#jumpToLatest}>↓ ${strings.jumpToLatest}</button>`
          : nothing
      }
      ${this.#composer.render({
        strings,
        maxInputChars: state.bootstrap?.limits.maxInputChars ?? null,
        isRunActive: isRunActive(state),
        canSendDuringRun: state.bootstrap?.capabilities.inputs.duringRun ?? false,
        canStop: isRunActive(state) || state.pendingSend?.status === 'sending',
        isStopping: state.isStopping,
        efforts: this.#effortsOf(state),
      })}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">${this.announcement}</div></div>
      ${
        isSheetOpen
          ? html`<agent-chat-conversations sheet .client=${this.client} .locale=${this.locale} .theme=${this.theme}
            @agent-chat-conversations-close=${this.#closeSheet}></agent-chat-conversations>`
          : nothing
      }`;
  }

  /**
   * Opens the conversations sheet (the panel builds its list from `client`) and moves focus into
   * it, once the panel's file has loaded when it is not defined yet (a failed load is reported).
   */
  #openSheet = (): void => {
    const load = customElements.get(CONVERSATIONS_TAG) ? undefined : findConversationsPanelLoader();
    if (load === undefined) this.#showSheet();
    else load().then(() => this.#showSheet(), reportError);
  };

  #showSheet(): void {
    this.isSheetOpen = true;
    this.#focusAfterUpdate(CONVERSATIONS_TAG);
  }

  /** Closes the sheet (its ✕, Escape, a switch or a new conversation) and gives focus back to the header's button. */
  #closeSheet = (): void => {
    this.isSheetOpen = false;
    this.#focusAfterUpdate('[part=conversations-button]');
  };

  #focusAfterUpdate(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  #state(): ClientState {
    return this.#clientController.state ?? EMPTY_STATE;
  }

  #isReasoningOpen(state: ClientState, message: SnapshotMessage, index: number): boolean {
    return (
      this.#reasoningOverrides.get(message.messageId) ??
      !(this.collapseReasoning && hasAnswerStarted(state.messages, index))
    );
  }

  /**
   * Applies what a new state means (called for every state the client publishes, and before each
   * render): lifecycle events, an announcement (a finished answer, or once that one is awaited), an
   * error event, a failed send's text back in the composer.
   */
  #applyStateEffects(state: ClientState): void {
    for (const [name, detail] of this.#lifecycle.observe(state)) this.dispatchEvent(createAgentChatEvent(name, detail));
    const { announcement, newError, restoredText } = this.#stateChanges.observe(state);
    const isAwaiting = isAwaitingAnswer(state);
    if (isAwaiting && !this.#isAwaitingAnswer) this.announcement = resolveStrings(this.locale, this.strings).thinking;
    this.#isAwaitingAnswer = isAwaiting;
    if (announcement !== undefined) this.announcement = announcement;
    if (newError) this.#emit('agent-chat-error', newError);
    if (restoredText !== undefined) this.#composer.restore(restoredText);
  }

  /** The efforts the picker offers: the default model's (`default: true`) `reasoningOptions` when `effortPicker` is on. */
  #effortsOf(state: ClientState): readonly ReasoningEffort[] {
    if (!this.effortPicker) return [];
    return state.bootstrap?.models.find((model) => model.default)?.reasoningOptions ?? [];
  }

  async #send(text: string, files: MessageFiles): Promise<unknown> {
    const client = this.client;
    if (!client) throw new Error('<agent-chat> has no client');
    this.#emit('agent-chat-send', { text, contextRefs: files.contextRefs ?? [], attachments: files.attachments ?? [] });
    this.#scrollPin.pin();
    if (isRunActive(this.#state())) return client.addInput(text);
    const { effort } = this.#composer;
    // An undefined option is no option (the client leaves it out of the request).
    return client.send(text, {
      ...files,
      focus: await this.#readContext(),
      // The picked level, unless none was (the picker shows only when the model offers levels).
      reasoningEffort: effort === '' ? undefined : effort,
    });
  }

  /** The page context of this send: `getContext`'s answer when it is set, else `context`; see `getContext`. */
  async #readContext(): Promise<FocusContext | undefined> {
    const { getContext } = this;
    this.isContextMissing = false;
    if (!getContext) return this.context ?? undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const focus = await Promise.race([
        getContext(),
        new Promise<never>((_, reject) => (timer = setTimeout(reject, CONTEXT_TIMEOUT_MS))),
      ]);
      if (focus === null) return undefined;
      if (typeof focus?.text === 'string') return focus;
    } catch {
      // It threw or timed out: the message goes without context, as for an answer that is not one.
    } finally {
      clearTimeout(timer);
    }
    this.isContextMissing = true;
    return undefined;
  }

  #stop(): void {
    void this.client?.cancel().catch(() => undefined);
  }

  /** Retry's button goes once the retry starts: focus goes on to the composer, never to <body>. */
  #retry = (): void => {
    this.#composer.focus();
    void this.client?.retry().catch(() => undefined);
  };

  #decide(interruptId: string, decision: ApprovalDecision): void {
    // The pressed button is disabled (then gone) at once: focus goes where the person goes on, never to <body>.
    this.#composer.focus();
    this.#emit('agent-chat-approve', { interruptId, decision });
    void this.client?.approve(interruptId, decision).catch(() => undefined);
  }

  #emit<Name extends AgentChatEventName>(name: Name, detail: AgentChatEventDetails[Name]): void {
    this.dispatchEvent(createAgentChatEvent(name, detail));
  }

  #onScroll = (): void => {
    this.#scrollPin.onScroll();
    this.#olderMessages?.onScroll();
  };

  /** Passive, so listening never delays the person's scrolling. */
  #personInput = { handleEvent: () => this.#scrollPin.onPersonInput(), passive: true };

  #jumpToLatest = (): void => {
    this.#scrollPin.jumpToLatest();
    this.#composer.focus();
  };
}

const EMPTY_STATE = createInitialClientState();
/** The conversations panel's tag; its code is in `agent-chat.conversations.js` (or the ESM build), never in this file. */
const CONVERSATIONS_TAG = 'agent-chat-conversations';
/** How long a send waits for the page's `getContext` before the message goes without context. */
const CONTEXT_TIMEOUT_MS = 5_000;

function isRunActive(state: ClientState): boolean {
  return state.run !== null && !isTerminalRunStatus(state.run.status);
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat': AgentChatElement;
  }
}
