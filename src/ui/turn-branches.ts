import type { TemplateResult } from 'lit';
import type {
  AgentClientHandle,
  AgentError,
  CreateRunRequest,
  CreateRunResponse,
  SessionResource,
  ShowBranchRequest,
  SnapshotMessage,
} from '../core/index.ts';
import { isTerminalRunStatus } from '../core/index.ts';
import type { SiblingTemplating } from './card-templating.ts';
import type { AgentChatStrings } from './i18n/en.ts';
import type { EN_TURN_STRINGS } from './i18n/en-turn-actions.ts';

/** The client calls the branch actions make (docs/protocol.md §5.2 and §5.7). */
export type BranchClient = Pick<AgentClientHandle, 'getState' | 'request' | 'switchSession'>;

/** One turn as its branch actions see it. */
interface Turn {
  user: SnapshotMessage;
  /** The message the turn follows: what a regeneration or an edit follows too. */
  parentMessageId: string | null;
  /** The user messages of the turn's versions, oldest first (just itself when it has none). */
  versions: string[];
}

/**
 * The versions of turns this page made, for as long as the turn shows from its run's snapshot
 * (history pages carry `branchMessageIds`, which win): the new turn's user message → the versions
 * of its turn.
 */
const versionsMadeHere = new Map<string, string[]>();

/** Per transcript (one per render), where each run's first user message stands. */
const userIndexesByTranscript = new WeakMap<readonly SnapshotMessage[], Map<string | undefined, number>>();

/**
 * Where run `runId`'s first user message stands in `messages`, or -1: the transcript is read once
 * per render, not once per finished turn (a render shows every turn's actions).
 */
function userIndexOf(messages: readonly SnapshotMessage[], runId: string | undefined): number {
  let byRun = userIndexesByTranscript.get(messages);
  if (byRun === undefined) {
    byRun = new Map();
    for (const [index, message] of messages.entries()) {
      if (message.role === 'user' && !byRun.has(message.runId)) byRun.set(message.runId, index);
    }
    userIndexesByTranscript.set(messages, byRun);
  }
  return byRun.get(runId) ?? -1;
}

/** The turn whose last answer is `answer`, from the transcript. */
function turnOf(client: BranchClient, answer: SnapshotMessage): Turn | undefined {
  const { messages } = client.getState();
  const index = userIndexOf(messages, answer.runId);
  const user = messages[index];
  if (user === undefined) return undefined;
  return {
    user,
    // A turn made before branches carries no parent: it follows the message before it.
    parentMessageId: user.parentMessageId ?? messages[index - 1]?.messageId ?? null,
    versions: user.branchMessageIds ?? versionsMadeHere.get(user.messageId) ?? [user.messageId],
  };
}

/** A random Idempotency-Key (also outside a secure context, where `crypto.randomUUID` is missing). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Makes another version of `turn` (docs/protocol.md §5.2): a run that follows the turn's parent
 * with `text` (the same text regenerates, another edits) and the turn's references and files (its
 * page context and instruction were the page's then, and go no further). It is sent with one key
 * however often it is retried, so it makes one run; then the session shows again, on the new
 * branch, streaming it.
 */
async function makeVersion(client: BranchClient, turn: Turn, text: string): Promise<void> {
  const { sessionId } = client.getState();
  if (sessionId === null) return;
  const session = await client.request<SessionResource>({
    method: 'GET',
    path: `/sessions/${encodeURIComponent(sessionId)}`,
    attempts: 3,
  });
  const body: CreateRunRequest = {
    sessionId,
    agentVersionId: session.body?.agentVersionId ?? '',
    // The turn's references and files go again: a version differs from its turn in the text alone.
    input: {
      content: [{ type: 'text', text }],
      ...(turn.user.contextRefs === undefined ? {} : { contextRefs: turn.user.contextRefs }),
      ...(turn.user.attachments === undefined
        ? {}
        : { attachments: turn.user.attachments.map(({ attachmentId }) => ({ attachmentId })) }),
    },
    parentMessageId: turn.parentMessageId,
  };
  const created = await client.request<CreateRunResponse>({
    method: 'POST',
    path: '/runs',
    body: JSON.stringify(body),
    headers: { 'Idempotency-Key': newKey() },
    attempts: 8,
  });
  const userMessageId = created.body?.userMessageId;
  if (userMessageId !== undefined) versionsMadeHere.set(userMessageId, [...turn.versions, userMessageId]);
  await client.switchSession(sessionId);
}

/** Shows the branch through the turn `messageId` starts (docs/protocol.md §5.7), then the session again. */
async function showVersion(client: BranchClient, messageId: string): Promise<void> {
  const { sessionId } = client.getState();
  if (sessionId === null) return;
  const body: ShowBranchRequest = { messageId };
  await client.request({
    method: 'POST',
    path: `/sessions/${encodeURIComponent(sessionId)}/branch`,
    body: JSON.stringify(body),
    attempts: 3,
  });
  await client.switchSession(sessionId);
}

const REGENERATE = 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7';
const EDIT = 'M4 20h4L19 9l-4-4L4 16zm11-15 4 4';

/**
 * Renders a finished turn's branch actions: Regenerate, Edit (the question in a small form, kept
 * when the send fails, with the server's reason) and, when the turn has versions, "‹ 2 / 3 ›"
 * moving between them. None acts while an answer is being made.
 */
export function createTurnBranches(
  templating: SiblingTemplating,
): (
  answer: SnapshotMessage,
  client: BranchClient,
  strings: typeof EN_TURN_STRINGS & AgentChatStrings,
) => TemplateResult {
  const { html, nothing } = templating;
  const icon = (path: string) =>
    html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${path}></path></svg>`;

  return (answer, client, strings) => {
    const turn = turnOf(client, answer);
    if (turn === undefined) return html``;
    // Asked on each press: a finished turn's row may not render again when a run starts.
    const isBusy = () => {
      const { pendingSend, run } = client.getState();
      return pendingSend !== null || (run !== null && !isTerminalRunStatus(run.status));
    };
    const index = turn.versions.indexOf(turn.user.messageId);
    const move = (step: number) => {
      const messageId = turn.versions[index + step];
      if (messageId !== undefined && !isBusy()) void showVersion(client, messageId).catch(() => undefined);
    };
    const submitEdit = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const text = (form.elements.namedItem('question') as HTMLTextAreaElement).value.trim();
      const output = form.querySelector('output') as HTMLOutputElement;
      if (text === '' || isBusy()) return;
      output.value = '';
      void makeVersion(client, turn, text).then(
        () => ((form.parentElement as HTMLDetailsElement).open = false),
        (error: AgentError) => (output.value = error.message),
      );
    };
    const regenerate = () => !isBusy() && void makeVersion(client, turn, turn.user.content).catch(() => undefined);
    return html`<button class="icon-button" data-action="regenerate" aria-label=${strings.regenerate} title=${strings.regenerate} @click=${regenerate}>
        ${icon(REGENERATE)}
      </button>
      <details class="turn-edit">
        <summary class="icon-button" aria-label=${strings.editQuestion} title=${strings.editQuestion}>${icon(EDIT)}</summary>
        <form @submit=${submitEdit}>
          <textarea name="question" aria-label=${strings.editQuestion} dir="auto" .value=${turn.user.content}></textarea>
          <button type="submit" aria-label=${strings.sendEdit}>${strings.send}</button>
          <output role="alert"></output>
        </form>
      </details>
      ${
        turn.versions.length < 2
          ? nothing
          : html`<span class="turn-versions" role="group" aria-label=${strings.versions}>
            <button class="icon-button" data-step="-1" aria-label=${strings.previousVersion} title=${strings.previousVersion} ?disabled=${index <= 0} @click=${() => move(-1)}>‹</button>
            <span>${index + 1} / ${turn.versions.length}</span>
            <button class="icon-button" data-step="1" aria-label=${strings.nextVersion} title=${strings.nextVersion} ?disabled=${index >= turn.versions.length - 1} @click=${() => move(1)}>›</button>
          </span>`
      }`;
  };
}
