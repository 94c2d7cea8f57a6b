import type { SettingStorage } from '../storage-port.ts';
import type { MemoryState } from './memory-state.ts';

/** The server settings role of the in-memory store. */
export function createMemorySettingStorage(state: MemoryState): SettingStorage {
  const { settings } = state;
  return {
    async getOrCreateSetting(name, proposed) {
      const existing = settings.get(name);
      if (existing !== undefined) return existing;
      settings.set(name, proposed);
      return proposed;
    },
  };
}
