import { spawn } from 'node:child_process';

/** One command of a track: its name in the report, the program and its arguments. */
export interface Stage {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** What a stage did: its exit code (null when it could not start or was killed), time and output. */
export interface StageResult {
  readonly name: string;
  readonly exitCode: number | null;
  readonly seconds: number;
  /** stdout and stderr interleaved as they came. */
  readonly output: string;
}

/**
 * Runs the tracks at the same time, each track's stages one after the other (a failed stage does
 * not stop the stages after it, so one run reports every problem). Output is buffered per stage so
 * concurrent stages never interleave; `onDone` hears each stage as it ends, in the order they end.
 * Resolves with every result in that order.
 */
export async function runStages(
  tracks: readonly (readonly Stage[])[],
  onDone: (result: StageResult) => void,
): Promise<StageResult[]> {
  const results: StageResult[] = [];
  await Promise.all(
    tracks.map(async (track) => {
      for (const stage of track) {
        const result = await runStage(stage);
        results.push(result);
        onDone(result);
      }
    }),
  );
  return results;
}

/** The first stage, in the order they ended, that did not exit with 0. */
export function firstFailure(results: readonly StageResult[]): StageResult | undefined {
  return results.find((result) => result.exitCode !== 0);
}

function runStage(stage: Stage): Promise<StageResult> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const child = spawn(stage.command, stage.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const finish = (exitCode: number | null): void =>
      resolve({ name: stage.name, exitCode, seconds: (performance.now() - startedAt) / 1000, output: chunks.join('') });
    child.on('error', (error) => {
      chunks.push(`${error.message}\n`);
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}
