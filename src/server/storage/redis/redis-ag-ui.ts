import { BIND_AG_UI_THREAD, SET_AG_UI_SEGMENT } from '../redis-record-scripts.ts';
import type { AgUiStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The AG-UI bindings role of the Redis store: threads in their subject's shard, segments on their run. */
export function createRedisAgUiStorage({ layout, run, send, directory }: RedisContext): AgUiStorage {
  return {
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      const shard = layout.ofSubject(subjectId);
      await run(
        BIND_AG_UI_THREAD,
        shard,
        { session: shard.session(sessionId), agUiThreads: shard.of('ag-ui-threads') },
        { field: agUiThreadField(subjectId, threadId), sessionId },
      );
    },
    async findAgUiThread(subjectId, threadId) {
      const threads = layout.ofSubject(subjectId).of('ag-ui-threads');
      const sessionId = await send(['HGET', threads, agUiThreadField(subjectId, threadId)]);
      return typeof sessionId === 'string' ? sessionId : null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      const shard = await directory.find(runId);
      await run(SET_AG_UI_SEGMENT, shard, { run: shard.run(runId) }, { runId, agUiRunId });
    },
    async getAgUiSegment(runId) {
      const shard = await directory.find(runId);
      const agUiRunId = await send(['HGET', shard.run(runId), 'agUiRunId']);
      return typeof agUiRunId === 'string' ? agUiRunId : null;
    },
  };
}

/** The field of a subject's AG-UI thread in the `ag-ui-threads` hash: both ids, unambiguously. */
function agUiThreadField(subjectId: string, threadId: string): string {
  return JSON.stringify([subjectId, threadId]);
}
