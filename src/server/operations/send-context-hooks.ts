import type { ContextRef } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import type { ResolvedContextRef, Subject } from '../runs/run-handle.ts';

/** What the product's `resolveContextRefs` answers: the text of every ref for the model, or why one is refused. */
export type ContextRefsResolution =
  | { kind: 'resolved'; refs: ResolvedContextRef[] }
  /** `code` is the product's own (e.g. `NOT_SHARED`); `message` is shown to the user. */
  | { kind: 'rejected'; ref: string; code: string; message: string };

/** The product's callbacks a send passes through before its run is created (docs/server.md, "Context"). */
export interface SendContextHooks {
  /**
   * Turns the attached references into text for the model, as the subject may see them. Without
   * it, a send with `contextRefs` is refused (`422 CONTEXT_REFS_UNSUPPORTED`), never ignored.
   */
  resolveContextRefs?: (
    subject: Subject,
    refs: readonly ContextRef[],
  ) => ContextRefsResolution | Promise<ContextRefsResolution>;
  /**
   * The subject's remaining balance as a decimal string of US dollars; `"0"` refuses the create
   * with `402 INSUFFICIENT_BALANCE` before any model call.
   */
  checkBalance?: (subject: Subject) => string | Promise<string>;
}

/** Throws `402 INSUFFICIENT_BALANCE` when the product's `checkBalance` says the subject has nothing left. */
export async function enforceBalance(hooks: SendContextHooks, subject: Subject): Promise<void> {
  if (hooks.checkBalance === undefined) return;
  const balance = await hooks.checkBalance(subject);
  if (!/^\d+(\.\d+)?$/.test(balance) || /^[0.]+$/.test(balance)) {
    fail({
      code: 'INSUFFICIENT_BALANCE',
      detail: 'There is no balance left for the agent; top up to go on.',
    });
  }
}

/**
 * Resolves a send's references through the product (docs/protocol.md §5.2): the texts for the
 * model, `422 CONTEXT_REFS_UNSUPPORTED` when the server has no resolver, or `422
 * CONTEXT_REF_REJECTED` with the product's code and message for a refused one.
 */
export async function resolveRefs(
  hooks: SendContextHooks,
  subject: Subject,
  refs: readonly ContextRef[] | undefined,
): Promise<ResolvedContextRef[] | undefined> {
  if (refs === undefined || refs.length === 0) return undefined;
  if (hooks.resolveContextRefs === undefined) {
    return fail({
      code: 'CONTEXT_REFS_UNSUPPORTED',
      detail: 'This agent cannot read attached references; send the message without them.',
      details: { field: 'input.contextRefs' },
    });
  }
  const resolution = await hooks.resolveContextRefs(subject, refs);
  if (resolution.kind === 'rejected') {
    return fail({
      code: 'CONTEXT_REF_REJECTED',
      detail: resolution.message,
      details: { field: 'input.contextRefs', ref: resolution.ref, reason: resolution.code },
    });
  }
  return resolution.refs;
}
