import { describe, expect, it } from 'vitest';
import { checkAttachToolsOptions } from './check-attach-tools-options.ts';

const tool = {
  description: 'Reads the selection.',
  parameters: { type: 'object', properties: {} },
  run: () => ({}),
};

/** The message `checkAttachToolsOptions` throws for `options`, or `valid`. */
function problemOf(options: unknown): string {
  try {
    checkAttachToolsOptions(options);
    return 'valid';
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe('checkAttachToolsOptions', () => {
  it('accepts the tools with every runner option of the right type', () => {
    expect(
      problemOf({
        tools: { 'page.read_selection': tool },
        locale: 'zh-CN',
        receipts: 'indexeddb',
        executorId: 'exe_profile-1',
        authorize: () => true,
        reconcile: () => null,
        onDiagnostic: () => undefined,
        clock: { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined },
        ids: () => 'id',
      }),
    ).toBe('valid');
    expect(problemOf({ tools: {}, receipts: () => ({}), locale: undefined })).toBe('valid');
  });

  it('names the option and what it must be', () => {
    const tools = { 'page.read_selection': tool };
    expect([
      problemOf(null),
      problemOf({ receipts: 'memory' }),
      problemOf({ tools: { 'page.read_selection': { ...tool, description: ' ' } } }),
      problemOf({ tools, receipt: 'memory' }),
      problemOf({ tools, receipts: 'session' }),
      problemOf({ tools, executorId: 'exe 1' }),
      problemOf({ tools, authorize: true }),
      problemOf({ tools, locale: '' }),
      problemOf({ tools, clock: null }),
    ]).toEqual([
      'TypeError: Browser tools: the options must be an object such as { tools }.',
      'TypeError: tools must be an object of browser tools keyed by name.',
      'TypeError: Browser tool "page.read_selection": it needs a description.',
      'TypeError: Browser tools: unknown option "receipt"; the options are tools, locale, receipts, executorId, authorize, reconcile, onDiagnostic, clock, ids.',
      'TypeError: Browser tools: the option "receipts" must be "memory", "indexeddb" or a function that makes a store for an identity id.',
      'TypeError: Browser tools: the option "executorId" must be 1–64 letters, digits, "_" or "-".',
      'TypeError: Browser tools: the option "authorize" must be a function (call, phase) returning true or false.',
      'TypeError: Browser tools: the option "locale" must be a non-empty string.',
      'TypeError: Browser tools: the option "clock" must be a clock ({ now, setTimeout, clearTimeout }).',
    ]);
  });
});
