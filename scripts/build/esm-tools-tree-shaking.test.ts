import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { describe, expect, test } from 'vitest';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = '\0product-page';

/**
 * Bundles a product page that imports `mount` from the ESM entry (src/index.ts), as a product's
 * bundler would, and returns the code of its entry chunk and of its lazily loaded chunks.
 */
async function bundlePage(source: string): Promise<{ entry: string; lazy: string[] }> {
  const bundle = await rolldown({
    input: ENTRY,
    cwd: rootDir,
    external: [/^lit(\/.*)?$/, /^@lit\//, /^marked$/, /^dompurify$/],
    plugins: [
      {
        name: 'product-page',
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) => (id === ENTRY ? source : null),
      },
    ],
  });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  const chunks = output.flatMap((item) => (item.type === 'chunk' ? [item] : []));
  return {
    entry: chunks.find((chunk) => chunk.isEntry)?.code ?? '',
    lazy: chunks.filter((chunk) => chunk.isDynamicEntry).map((chunk) => chunk.code),
  };
}

/** A string only the browser tool runner holds (its heartbeat path). */
const RUNNER_MARK = '/heartbeat';

describe('the ESM mount and the browser tool runner', () => {
  test('a page that mounts from agent-chat gets the runner only in a chunk it loads when a mount has tools', async () => {
    const page = await bundlePage(
      `import { mount } from './src/index.ts';\nmount('#chat', { endpoint: '/api/agent' });`,
    );
    expect(page.entry).toContain('AgentChat.mount');
    expect(page.entry).not.toContain(RUNNER_MARK);
    expect(page.lazy.filter((code) => code.includes(RUNNER_MARK))).toHaveLength(1);
  }, 60_000);

  test('a page that uses agent-chat/tools itself gets the runner in its entry chunk', async () => {
    const page = await bundlePage(
      `import { attachToolRunner } from './src/tools/index.ts';\nglobalThis.runner = attachToolRunner;`,
    );
    expect(page.entry).toContain(RUNNER_MARK);
  }, 60_000);
});
