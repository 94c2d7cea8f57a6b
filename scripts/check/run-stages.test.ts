import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstFailure, runStages, type StageResult } from './run-stages.ts';

const node = (name: string, code: string) => ({ name, command: process.execPath, args: ['-e', code] });

describe('runStages', () => {
  it('runs every stage of every track, keeps going after a failure, and names the first that failed', async () => {
    const heard: string[] = [];
    const results = await runStages(
      [
        [node('fails', 'console.error("bad format"); process.exit(2)'), node('after', 'console.log("still ran")')],
        [node('passes', 'console.log("ok")')],
      ],
      (result) => heard.push(result.name),
    );

    expect(heard.sort()).toEqual(['after', 'fails', 'passes']);
    const byName = new Map(results.map((result): [string, StageResult] => [result.name, result]));
    expect(byName.get('fails')).toMatchObject({ exitCode: 2, output: 'bad format\n' });
    expect(byName.get('after')).toMatchObject({ exitCode: 0, output: 'still ran\n' });
    expect(byName.get('passes')).toMatchObject({ exitCode: 0, output: 'ok\n' });
    expect(firstFailure(results)?.name).toBe('fails');
  });

  it('starts a stage of a track only once the stage before it ended', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'run-stages-'));
    const marker = JSON.stringify(join(folder, 'first-ended'));
    try {
      const results = await runStages(
        [
          [
            node('first', `require("fs").writeFileSync(${marker}, "")`),
            node('second', `process.exit(require("fs").existsSync(${marker}) ? 0 : 1)`),
          ],
        ],
        () => {},
      );

      expect(results.map((result) => [result.name, result.exitCode])).toEqual([
        ['first', 0],
        ['second', 0],
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reports a stage whose program is missing as failed, with the reason, and no failure when all pass', async () => {
    const results = await runStages([[{ name: 'missing', command: '/nonexistent/tool', args: [] }]], () => {});

    expect(results[0]).toMatchObject({ name: 'missing', exitCode: null });
    expect(results[0]?.output).toContain('ENOENT');
    expect(firstFailure(await runStages([[node('passes', '')]], () => {}))).toBeUndefined();
  });
});
