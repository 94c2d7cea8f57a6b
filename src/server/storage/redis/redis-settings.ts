import { GET_OR_CREATE_SETTING } from '../redis-record-scripts.ts';
import { scriptArguments } from '../redis-script.ts';
import type { SettingStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The server settings role of the Redis store: one hash beside the shards, the first value stored wins. */
export function createRedisSettingStorage({ connections, layout }: RedisContext): SettingStorage {
  return {
    async getOrCreateSetting(name, proposed) {
      const settings = `${layout.global}settings`;
      const call = scriptArguments(
        GET_OR_CREATE_SETTING,
        { keys: { settings }, args: { name, proposed } },
        layout.global,
      );
      return String(await connections.runScript(GET_OR_CREATE_SETTING, call.keys, call.argv));
    },
  };
}
