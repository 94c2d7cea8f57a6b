/**
 * The tool cards' module: the tool call card and the approval card, which only hosts whose agent
 * calls tools need. A file of its own (`src/parts/tool-cards/tool-cards-on-demand.ts` loads it): a chunk of the
 * ESM build, the sibling file `agent-chat.tool-cards.js` of the script tag's.
 */
export { createApprovalCard } from './approval-card/approval-card.ts';
export { createToolCard } from './tool-card/tool-card.ts';
