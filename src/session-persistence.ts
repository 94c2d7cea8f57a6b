import type { ClientStorage } from './core/index.ts';

/**
 * What a widget's client keeps across reloads (`persist`, on by default in `mount` and the React
 * component): `sessionStorage` under a key prefix per target id, so two persisted widgets on a
 * page stay apart.
 */
export function sessionPersistenceFor(targetId: string | undefined): {
  storage?: ClientStorage;
  storagePrefix: string;
} {
  const storagePrefix = targetId ? `agent-chat:${targetId}:` : 'agent-chat:';
  try {
    return { storage: globalThis.sessionStorage, storagePrefix };
  } catch {
    // Storage disabled (sandboxed frame, privacy mode): the chat works, it just will not survive a reload.
    return { storagePrefix };
  }
}
