import type { ToolCallStatus } from '../../core/index.ts';
import type { ToolCardStrings } from '../i18n/en-tool-cards.ts';

/** The strings that name a tool call's status. */
type ToolStatusStringKey = Extract<keyof ToolCardStrings, `toolStatus${string}`>;

/** The label of each status; a status added to `ToolCallStatus` fails to compile until it has one. */
const STATUS_LABEL_KEYS: Record<ToolCallStatus, ToolStatusStringKey> = {
  streaming_args: 'toolStatusStreamingArgs',
  pending: 'toolStatusPending',
  awaiting_approval: 'toolStatusAwaitingApproval',
  // A browser call waiting to be claimed; the page's tool runner says more in the card's note.
  awaiting_executor: 'toolStatusPending',
  running: 'toolStatusRunning',
  completed: 'toolStatusCompleted',
  failed: 'toolStatusFailed',
  denied: 'toolStatusDenied',
  cancelled: 'toolStatusCancelled',
  unknown: 'toolStatusUnknown',
  expired: 'toolStatusExpired',
};

/** What a tool call's card says of its status. */
export function toolStatusLabel(status: ToolCallStatus, strings: ToolCardStrings): string {
  return strings[STATUS_LABEL_KEYS[status]];
}
