import { randomBytes } from 'node:crypto';
import type { AgentStorage } from './storage/storage-port.ts';

/**
 * A server secret kept in the storage's settings, as one process holds it: resolves with the value
 * held, read again from the storage once it is `refreshMs` old.
 */
export type StoredSecret = () => Promise<string>;

/**
 * Holds the setting `name` (the identity or the grant secret) and reads it again every `refreshMs`,
 * so every process on one storage converges on one value even after the storage lost its data (a
 * Redis without persistence that restarted): a re-read proposes the value held, so the first
 * process to read after the loss writes back the secret the others already use, and a process
 * whose held value differs from the stored one takes the stored one and reports it (`onChange`).
 * While the storage cannot be read the held value is kept.
 */
export function createStoredSecret(options: {
  storage: AgentStorage;
  name: string;
  now: () => number;
  refreshMs: number;
  onChange: (change: { name: string }) => void;
}): StoredSecret {
  const { storage, name } = options;
  let held: string | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<string> | undefined;
  const read = async (): Promise<string> => {
    try {
      const value = await storage.getOrCreateSetting(name, held ?? randomBytes(32).toString('base64url'));
      if (held !== undefined && value !== held) options.onChange({ name });
      held = value;
      readAt = options.now();
      return value;
    } catch (error) {
      if (held === undefined) throw error;
      return held;
    }
  };
  return () => {
    if (held !== undefined && options.now() - readAt < options.refreshMs) return Promise.resolve(held);
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
}
