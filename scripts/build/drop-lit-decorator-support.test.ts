import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cutLitDecoratorSupport } from './drop-lit-decorator-support.ts';

const readReactiveElement = (): Promise<string> =>
  readFile(
    fileURLToPath(new URL('../../node_modules/@lit/reactive-element/reactive-element.js', import.meta.url)),
    'utf8',
  );

describe('cutLitDecoratorSupport', () => {
  test("removes every trace of Lit's decorator support and keeps the rest of the class", async () => {
    const source = await readReactiveElement();
    const cut = cutLitDecoratorSupport(source);
    if (typeof cut !== 'string') throw new Error(cut.error);
    for (const gone of ['Symbol.metadata', 'litPropertyMetadata', 'addInitializer', '.l?.forEach', 'this.l=']) {
      expect(source).toContain(gone);
      expect(cut).not.toContain(gone);
    }
    for (const kept of ['static createProperty(', 'static finalize(){', 'addController(', 'this.requestUpdate()}']) {
      expect(cut).toContain(kept);
    }
  });

  test('refuses a reactive-element.js whose decorator parts changed shape, naming the part', async () => {
    const source = await readReactiveElement();
    expect(cutLitDecoratorSupport(source.replace('static addInitializer(', 'static addInitialiser('))).toEqual({
      error: "@lit/reactive-element's reactive-element.js has 0 copies of static addInitializer, not 1",
    });
  });
});
