/** A signal that follows several others, and the way to stop following them. */
export interface LinkedSignal {
  /** Aborts, with the same reason, as soon as any linked signal aborts. */
  signal: AbortSignal;
  /** Removes the listeners this link added; call it when the operation ends. */
  dispose(): void;
}

/**
 * Links signals into one that aborts when the first of them does (undefined entries are
 * skipped). Works where `AbortSignal.any` is missing (Node < 20.3, older browsers), and unlike
 * it releases its listeners deterministically through `dispose`.
 */
export function linkSignals(signals: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const controller = new AbortController();
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  function onAbort(this: AbortSignal): void {
    controller.abort(this.reason);
    dispose();
  }
  function dispose(): void {
    for (const signal of present) signal.removeEventListener('abort', onAbort);
  }
  const alreadyAborted = present.find((signal) => signal.aborted);
  if (alreadyAborted) controller.abort(alreadyAborted.reason);
  else for (const signal of present) signal.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, dispose };
}
