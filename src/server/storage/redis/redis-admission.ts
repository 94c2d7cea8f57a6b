import { TAKE_RATE } from '../redis-rate-script.ts';
import { scriptArguments } from '../redis-script.ts';
import type { AdmissionStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The admission role of the Redis store: the rate buckets and active runs every process shares. */
export function createRedisAdmissionStorage({ connections, layout, send }: RedisContext): AdmissionStorage {
  return {
    async countActiveRuns(subjectId) {
      return Number(await send(['SCARD', layout.ofSubject(subjectId).subjectActive(subjectId)]));
    },
    async takeRate(request) {
      const bucket = layout.rate(request.perMinute, request.bucket);
      // The bucket has a hash tag of its own: the script reads no shard key.
      const call = scriptArguments(
        TAKE_RATE,
        { keys: { bucket }, args: { perMinute: request.perMinute, now: request.now } },
        '',
      );
      const retryAfterMs = Number(await connections.runScript(TAKE_RATE, call.keys, call.argv));
      return retryAfterMs === 0 ? { isAllowed: true } : { isAllowed: false, retryAfterMs };
    },
  };
}
