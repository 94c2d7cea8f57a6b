/**
 * Types of the script-tag approval card file (`agent-chat/agent-chat.approval.js`): the
 * `window.AgentChatApprovalCard` global it installs, which `agent-chat.js` loads on the first
 * approval (embed/siblings.ts).
 */
import type { ApprovalCardModule } from './approval-card-on-demand.ts';

declare global {
  interface Window {
    AgentChatApprovalCard?: ApprovalCardModule;
  }
}
