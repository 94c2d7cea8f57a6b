/** Every user-visible string of the widget; `{name}` placeholders are filled by `formatString`. */
export interface AgentChatStrings {
  transcriptLabel: string;
  composerLabel: string;
  composerPlaceholder: string;
  send: string;
  stop: string;
  stopping: string;
  /** The chip on a user message sent with page context (`getContext`/`setContext`): its title and size. */
  contextAttached: string;
  /** The title of a page context that has none. */
  contextUntitled: string;
  /** The status line after a message went without context because the page's `getContext` threw, timed out or gave no `{ text }`. */
  contextFailed: string;
  inputLimit: string;
  inputOverLimit: string;
  jumpToLatest: string;
  /** The quiet line at the top of the transcript while older messages load. */
  loadingOlder: string;
  you: string;
  assistant: string;
  sending: string;
  reasoning: string;
  reasoningStreaming: string;
  /** The cards' strings below are optional: their English defaults ship in the cards' file (en-tool-cards.ts). */
  toolArguments?: string;
  toolResult?: string;
  toolProgress?: string;
  toolTruncated?: string;
  /** The label of a tool call's evidence: how each of the product's checks decided (docs/agent-loop.md, "Evidence"). */
  toolEvidence?: string;
  /** Instead of the status of the tool call that ended its run on purpose. */
  toolStoppedRun: string;
  /** A tool call's status, on its card: English defaults in the cards' file (en-tool-cards.ts). */
  toolStatusStreamingArgs?: string;
  toolStatusPending?: string;
  toolStatusAwaitingApproval?: string;
  toolStatusRunning?: string;
  toolStatusCompleted?: string;
  toolStatusFailed?: string;
  toolStatusDenied?: string;
  toolStatusCancelled?: string;
  toolStatusUnknown?: string;
  /** A browser tool call nobody started before its deadline (docs/protocol.md §19). */
  toolStatusExpired?: string;
  approvalTitle?: string;
  approvalExpires?: string;
  allow?: string;
  deny?: string;
  approvalAllowed: string;
  approvalDenied: string;
  approvalExpired: string;
  approvalCancelled: string;
  approvalSubmitting?: string;
  /** An approval's row while its card's file loads (the script tag's `agent-chat.tool-cards.js`). */
  approvalLoading: string;
  /** An approval's row when its card's file did not load (beside Retry). */
  approvalLoadFailed: string;
  /** The title of a proposal's card (a tool's preview of a write, docs/protocol.md §11.1). */
  proposalTitle?: string;
  apply?: string;
  dismiss?: string;
  proposalApplied: string;
  proposalDismissed: string;
  /** An approval's disclosure of the exact arguments (raw JSON) and the tool's name. */
  approvalDetails?: string;
  /** The label of the tool's name inside it. */
  approvalTool?: string;
  showFullValue?: string;
  hiddenCharacters: string;
  errorTitle: string;
  errorReference: string;
  /** The disclosure that holds an error's reference (unless `showErrorReference`). */
  errorDetails: string;
  copied: string;
  copyCode: string;
  markdownImage: string;
  markdownTruncated: string;
  retry: string;
  reconnecting: string;
  /** Shown (and announced once) from a send until the answer's first row appears. */
  thinking: string;
  /**
   * The working row while the server tries the model again (`NOTICE{MODEL_RETRYING}`): `{time}` is
   * when ("in 3 seconds", then "now"). No attempt number: the server's own retries are no tries of the user's.
   */
  retrying: string;
  offline: string;
  messageCancelled: string;
  messageFailed: string;
  messageCutAtLength: string;
  runFailed: string;
  /** Under an answer whose server process stopped mid-answer (`RUN_ABANDONED`). */
  messageInterrupted: string;
  launcherOpen: string;
  launcherClose: string;
  launcherPanel: string;
  greeting: string;
  suggestions: string;
  newConversation: string;
  /** The header's button that opens the conversations sheet (when `agent-chat.conversations.js` is loaded). */
  conversations: string;
  /**
   * An answer's Copy, thumbs up and down and the button that opens a vote's comment. Their
   * English defaults ship in the turn actions' file (src/ui/turn-actions.ts), which alone shows them.
   */
  copyMessage?: string;
  rateUp?: string;
  rateDown?: string;
  feedbackComment?: string;
  /** The label of an answer's source cards (`getReferences`), shipped with the turn actions. */
  sources?: string;
  /** A turn's branch actions (the turn actions' file): Regenerate, Edit, and the "‹ 2 / 3 ›" between versions. */
  regenerate?: string;
  editQuestion?: string;
  sendEdit?: string;
  versions?: string;
  previousVersion?: string;
  nextVersion?: string;
  /**
   * The composer extras' (src/ui/composer-extras.ts), whose file ships their English defaults: the
   * attach button, a chip's remove and cancel, an upload's progress, why a file was refused; the
   * effort picker's label and first option (the server's default), then its levels.
   */
  attach?: string;
  removeAttachment?: string;
  cancelUpload?: string;
  attachmentUploading?: string;
  attachmentTooLarge?: string;
  attachmentTooMany?: string;
  attachmentTypeUnsupported?: string;
  attachmentQuotaExceeded?: string;
  attachmentFailed?: string;
  effort?: string;
  effortLow?: string;
  effortMedium?: string;
  effortHigh?: string;
  effortXhigh?: string;
  effortMax?: string;
  /**
   * The declarative widgets' own words (docs/widgets.md): a node it cannot show, a submitted form,
   * an action on its way, failed, or refused as stale. English defaults in the widgets' file.
   */
  widgetUnsupported?: string;
  widgetSubmitted?: string;
  widgetSending?: string;
  widgetFailed?: string;
  widgetStale?: string;
}

/** The built-in English strings. */
export const EN_STRINGS: AgentChatStrings = {
  transcriptLabel: 'Conversation',
  composerLabel: 'Message',
  composerPlaceholder: 'Ask anything…',
  send: 'Send',
  stop: 'Stop',
  stopping: 'Stopping…',
  contextAttached: 'Context: {title} · {count} characters',
  contextUntitled: 'this page',
  contextFailed: 'Sent without the page context: it could not be read.',
  inputLimit: '{count} / {max} characters',
  inputOverLimit: '{count} / {max} characters — too long to send',
  jumpToLatest: 'Jump to latest',
  loadingOlder: 'Loading earlier messages…',
  you: 'You',
  assistant: 'Assistant',
  sending: 'Sending…',
  reasoning: 'Reasoning',
  reasoningStreaming: 'Thinking…',
  toolStoppedRun: 'Stopped the run: {reason}',
  approvalLoading: 'Loading the approval…',
  approvalLoadFailed: 'The approval could not be shown.',
  hiddenCharacters: 'Contains hidden or control characters (shown as ⟪U+…⟫).',
  approvalAllowed: 'Allowed',
  approvalDenied: 'Denied',
  approvalExpired: 'Expired without an answer',
  approvalCancelled: 'Cancelled',
  proposalApplied: 'Applied',
  proposalDismissed: 'Dismissed',
  errorTitle: 'Something went wrong',
  errorReference: 'Reference',
  errorDetails: 'Details',
  copied: 'Copied',
  copyCode: 'Copy code',
  markdownImage: 'image',
  markdownTruncated: 'Message truncated: only the first 200,000 characters are shown.',
  retry: 'Retry',
  reconnecting: 'Reconnecting…',
  thinking: 'Thinking…',
  retrying: 'Retrying {time}…',
  offline: 'Offline. Waiting for the network…',
  messageCancelled: 'Stopped',
  messageFailed: 'This answer did not finish.',
  messageCutAtLength: 'The answer was cut at the length limit.',
  runFailed: 'This answer failed: {message}',
  messageInterrupted: 'Interrupted: the server stopped before this answer finished.',
  launcherOpen: 'Open chat',
  launcherClose: 'Close chat',
  launcherPanel: 'Chat',
  greeting: 'How can I help you today?',
  suggestions: 'Suggestions',
  newConversation: 'New conversation',
  conversations: 'Conversations',
};
