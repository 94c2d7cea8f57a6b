import { cpus, loadavg } from 'node:os';

/** One line naming the CPU, its core count and the load average, so a result can be read in context. */
export function describeMachine(): string {
  const processors = cpus();
  const [oneMinute = 0] = loadavg();
  return `machine: ${processors.length} × ${processors[0]?.model.trim() ?? 'unknown CPU'}, load average ${oneMinute.toFixed(2)} (other processes share these cores)`;
}
