import type { ObservabilityOptions } from '../src/server/observability/create-observability.ts';
import { parseLogLevel } from '../src/server/observability/structured-log.ts';

/**
 * Reads what `npm start` observes from the environment (docs/operations.md): probes always on;
 * `AGENT_CHAT_METRICS=1` serves `/metrics`, to loopback clients only unless
 * `AGENT_CHAT_METRICS_TOKEN` is set (then to any client sending it as a bearer token);
 * `AGENT_CHAT_LOG_LEVEL` sets the log level (default `info`). Throws a `RangeError` naming the
 * variable for a value it does not understand.
 */
export function readObservabilityFromEnv(env: Record<string, string | undefined>): ObservabilityOptions {
  const metrics = env['AGENT_CHAT_METRICS']?.trim() ?? '';
  if (!['', '0', '1'].includes(metrics)) throw new RangeError('AGENT_CHAT_METRICS must be 1 (on) or 0 (off).');
  const levelText = env['AGENT_CHAT_LOG_LEVEL']?.trim() ?? '';
  const logLevel = levelText === '' ? 'info' : parseLogLevel(levelText);
  if (logLevel === undefined) {
    throw new RangeError('AGENT_CHAT_LOG_LEVEL must be one of debug, info, warn, error, silent.');
  }
  const token = env['AGENT_CHAT_METRICS_TOKEN']?.trim() ?? '';
  return {
    probes: true,
    logLevel,
    ...(metrics === '1' ? { metrics: token === '' ? true : { bearerToken: token } } : {}),
  };
}
