import type { SettingStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';

/** The server settings role of the SQLite store: the first value stored wins, in one immediate transaction. */
export function createSqliteSettingStorage({ db, sql }: SqliteContext): SettingStorage {
  const getOrCreateSetting = db.transaction((name: string, proposed: string) => {
    sql.insertSetting.run(name, proposed);
    return (sql.setting.get(name) as { value: string }).value;
  });
  return {
    async getOrCreateSetting(name, proposed) {
      return getOrCreateSetting.immediate(name, proposed);
    },
  };
}
