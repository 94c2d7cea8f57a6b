import { css, html, nothing } from 'lit';
import { renderVisibleText } from './ui/text/render-visible-text.ts';
import type { ApprovalCard, createApprovalCard } from './ui/approval-card/approval-card.ts';

/** What the approval card's file provides: `approval-card.ts` itself, or the script tag's sibling file. */
export interface ApprovalCardModule {
  createApprovalCard: typeof createApprovalCard;
}

// The ESM build's: a chunk of its own. The script tag's build drops it (scripts/build/iife-plugins.ts) and its entry provides the sibling file.
let loadModule: () => Promise<ApprovalCardModule> = () => import('./ui/approval-card/approval-card.ts');
let loading: Promise<ApprovalCard> | undefined;
let loaded: ApprovalCard | undefined;

/**
 * Makes `load` the way every `<agent-chat>` gets the approval card, which only hosts whose agent
 * asks for approvals need: by default a dynamic import of `approval-card.ts` (a chunk of the ESM
 * build); the script tag's entry provides its sibling file `agent-chat.approval.js` (embed/siblings.ts).
 */
export function provideApprovalCard(load: () => Promise<ApprovalCardModule>): void {
  loadModule = load;
}

/** The approval card once it has loaded; `undefined` before (then {@link loadApprovalCard} gets it). */
export function findApprovalCard(): ApprovalCard | undefined {
  return loaded;
}

/**
 * Loads the approval card once, with the widget's own Lit. Rejects when its file does not load
 * (network, integrity, CSP); a later call tries again.
 */
export function loadApprovalCard(): Promise<ApprovalCard> {
  loading ??= loadModule().then(
    (module) => (loaded = module.createApprovalCard({ html, nothing, css, renderVisibleText })),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
