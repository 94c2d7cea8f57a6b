import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { renameLitPolicyIn } from './rename-lit-policy.ts';

const readLitHtml = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/lit-html/lit-html.js', import.meta.url)), 'utf8');

describe('renameLitPolicyIn', () => {
  test("gives the installed lit-html's one policy the new name and changes nothing else", async () => {
    const source = await readLitHtml();
    const renamed = renameLitPolicyIn(source, 'agent-chat-conversations');
    if (typeof renamed !== 'string') throw new Error(renamed.error);
    expect(renamed).toContain('createPolicy("agent-chat-conversations",{createHTML:');
    expect(renamed).not.toContain('"lit-html"');
    expect(renamed.replace('"agent-chat-conversations"', '"lit-html"')).toBe(source);
  });

  test('refuses a lit-html.js that creates its policy another way', async () => {
    const source = await readLitHtml();
    expect(renameLitPolicyIn(source.replace('createPolicy("lit-html",', 'createPolicy(`lit-html`,'), 'x')).toEqual({
      error: `lit-html's lit-html.js has 0 copies of createPolicy("lit-html",, not 1`,
    });
  });
});
