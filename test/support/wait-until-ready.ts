import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** What {@link waitUntilReady} watches for. */
export interface ReadyWatch {
  /** The program's name in the error (`redis-server`, `postgres`). */
  name: string;
  /** The line the program writes, on stdout or stderr, once it accepts connections. */
  readyText: string;
  timeoutMs: number;
  /** Stops the program when it is not ready in time or exits first. */
  stop: () => Promise<void>;
}

/**
 * Resolves once `child` writes `watch.readyText`; rejects with everything it wrote when it exits
 * first or `watch.timeoutMs` pass (after stopping it). Afterwards its output is drained, not kept.
 */
export async function waitUntilReady(
  child: ChildProcessByStdio<Writable, Readable, Readable>,
  watch: ReadyWatch,
): Promise<void> {
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      void watch.stop().finally(() => reject(new Error(`${watch.name} ${why}:\n${output}`)));
    };
    const timer = setTimeout(() => fail(`was not ready within ${watch.timeoutMs} ms`), watch.timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!output.includes(watch.readyText)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (): void => fail('exited before it was ready');
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
}
