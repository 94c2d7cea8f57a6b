/**
 * The server settings every process on one store agrees on: the identity and grant secrets and the
 * log subject key, each made once by whichever process asks first (`createStoredSecret`).
 */
export interface SettingStorage {
  /** Returns the stored value of a server setting, storing `proposed` first when there is none. */
  getOrCreateSetting(name: string, proposed: string): Promise<string>;
}
