import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * docs/server.md against examples/: every code block marked `<!-- copied from PATH -->` is, line
 * for line, a contiguous part of that file, so the mounts the page shows are the tested ones.
 */
const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): Promise<string> => readFile(`${rootDir}${path}`, 'utf8');

describe('docs/server.md', () => {
  test('shows each mount exactly as the tested file in examples/ has it', async () => {
    const doc = await read('docs/server.md');
    const copies = [...doc.matchAll(/<!-- copied from (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
    expect(copies.map((copy) => copy[1])).toEqual([
      'examples/nextjs/app/api/agent/[...path]/route.ts',
      'examples/nextjs/lib/agent.ts',
      'examples/nextjs/lib/client-address.ts',
      'examples/hono/agent-app.ts',
      'examples/five-minutes/server-express.mjs',
      'examples/five-minutes/server.mjs',
    ]);
    for (const [, path = '', block = ''] of copies) {
      const source = await read(path);
      expect(source.includes(block), `${path} holds the block docs/server.md shows`).toBe(true);
    }
  });
});
