import type { AgentStorage } from '../storage/storage-port.ts';

/** What `/readyz` found: `ready` only when every check is `ok`. */
export interface ReadinessReport {
  ready: boolean;
  checks: { storage: 'ok' | 'failed' | 'timeout'; handler: 'ok' | 'closed' };
}

/**
 * Asks the storage whether it can serve (`checkReady`: SQLite takes a write, Redis answers
 * `PING`; a storage without it is asked for its counts) within `timeoutMs`.
 */
export async function checkReadiness(
  storage: AgentStorage,
  options: { timeoutMs: number; isClosed: boolean },
): Promise<ReadinessReport> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    timer.unref();
  });
  const answer = (storage.checkReady === undefined ? storage.counts() : storage.checkReady()).then(
    () => 'ok' as const,
    () => 'failed' as const,
  );
  const outcome = await Promise.race([answer, timeout]);
  clearTimeout(timer);
  const handler = options.isClosed ? 'closed' : 'ok';
  return { ready: outcome === 'ok' && handler === 'ok', checks: { storage: outcome, handler } };
}
