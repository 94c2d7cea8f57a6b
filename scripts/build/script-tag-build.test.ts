import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { describe, expect, test } from 'vitest';
import { PART_TABLE, partFileName } from '../../src/parts/part-table.ts';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** The files of the parts `agent-chat.js` carries, as scripts/build/build-parts.ts hands them over. */
const CARRIED_FILES = Object.fromEntries(
  PART_TABLE.filter((row) => !('carriedBy' in row)).map(({ name }) => [
    name,
    { fileName: partFileName(name), integrity: 'sha384-test' },
  ]),
);

/**
 * Bundles `entry` with `__SCRIPT_TAG_BUILD__` set to `isScriptTag`, as the shipped builds define
 * it (scripts/build/build-iife.ts, build-esm.ts), and returns its entry chunk and its lazy chunks.
 */
async function bundle(entry: string, isScriptTag: boolean): Promise<{ entry: string; lazy: string[] }> {
  const build = await rolldown({
    input: entry,
    cwd: rootDir,
    external: [/^lit(\/.*)?$/, /^@lit\//, /^marked$/, /^dompurify$/],
    transform: {
      define: {
        __SCRIPT_TAG_BUILD__: String(isScriptTag),
        ...(isScriptTag ? { __AGENT_CHAT_PART_FILES__: JSON.stringify(CARRIED_FILES) } : {}),
      },
    },
  });
  const { output } = await build.generate({ format: 'es' });
  await build.close();
  const chunks = output.flatMap((item) => (item.type === 'chunk' ? [item] : []));
  return {
    entry: chunks.find((chunk) => chunk.isEntry)?.code ?? '',
    lazy: chunks.filter((chunk) => chunk.isDynamicEntry).map((chunk) => chunk.code),
  };
}

describe('__SCRIPT_TAG_BUILD__ picks how the parts load', () => {
  test("the script tag's entry loads every part it carries by its file, and imports no part's module", async () => {
    const page = await bundle('embed/index.ts', true);
    expect(page.lazy).toEqual([]);
    expect(page.entry).not.toMatch(/\bimport\s*\(/);
    for (const { fileName } of Object.values(CARRIED_FILES)) expect(page.entry).toContain(fileName);
    expect(page.entry).toContain('currentScript');
  }, 60_000);

  test('the ESM entry imports the parts as chunks of their own and holds no part-file loader', async () => {
    const page = await bundle('src/index.ts', false);
    expect(page.entry).not.toContain('currentScript');
    expect(page.entry).not.toContain('__AGENT_CHAT_PART_FILES__');
    // The tool cards, the turn actions, the composer extras, the widgets (from the cards) and define.ts.
    expect(page.lazy.length).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
