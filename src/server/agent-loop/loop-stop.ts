/** Why the loop stops before an answer: a cancel, a tool that ended the run on purpose, or a failure with its code. */
export type StopCause =
  | { kind: 'cancel' }
  | { kind: 'ended'; reason: string; toolCallId: string }
  | { kind: 'error'; code: string; message: string; retryable: boolean };

/** Thrown (and used as an abort reason) to end the loop with a given terminal outcome. */
export class LoopStop extends Error {
  constructor(readonly stop: StopCause) {
    super(stop.kind === 'cancel' ? 'The run was cancelled.' : stop.kind === 'ended' ? stop.reason : stop.message);
    this.name = 'LoopStop';
  }
}

/** Returns a `LoopStop` for a failure with `code` and a message safe to show the user. */
export function stopWithError(code: string, message: string, retryable: boolean): LoopStop {
  return new LoopStop({ kind: 'error', code, message, retryable });
}

/** True when `error` is a `LoopStop` caused by the user's cancel. */
export function isCancelStop(error: unknown): boolean {
  return error instanceof LoopStop && error.stop.kind === 'cancel';
}

/** Creates a controller that aborts (with the parent's reason) when `parent` aborts. */
export function linkAbort(parent: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}
