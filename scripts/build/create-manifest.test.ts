import { describe, expect, test } from 'vitest';
import { checkSizeBudget, IIFE_GZIP_BUDGET_BYTES } from './check-size-budget.ts';
import { createManifest, describeFile } from './create-manifest.ts';
import { formatKb, formatSizeTable } from './format-size-table.ts';

const encoder = new TextEncoder();

describe('describeFile', () => {
  test('gives the byte size, the gzip and brotli sizes and the SHA-384 SRI integrity', () => {
    // `printf 'alert(1)' | openssl dgst -sha384 -binary | base64`
    expect(describeFile(encoder.encode('alert(1)'))).toEqual({
      bytes: 8,
      gzipBytes: 28,
      brotliBytes: 12,
      integrity: 'sha384-HT2E9NfWiuQ/w1PRai+hTyqW16NIoCGA/m8VQDUopfAtcz6YQjtsMmQd5uRbVDpW',
    });
  });
});

describe('createManifest', () => {
  test('records the version and every file by path, sorted', () => {
    const files = new Map([
      ['esm/index.js', encoder.encode('export {};\n')],
      ['agent-chat.js', encoder.encode('alert(1)')],
    ]);
    const manifest = createManifest({ name: 'agent-chat', version: '1.2.3', files });
    expect(manifest.name).toBe('agent-chat');
    expect(manifest.version).toBe('1.2.3');
    expect(Object.keys(manifest.files)).toEqual(['agent-chat.js', 'esm/index.js']);
    expect(manifest.files['agent-chat.js']?.bytes).toBe(8);
  });
});

describe('formatSizeTable', () => {
  test('lists JavaScript files aligned, and counts declarations in one line', () => {
    const manifest = {
      name: 'agent-chat',
      version: '0.1.0',
      files: {
        'agent-chat.js': { bytes: 182_330, gzipBytes: 61_140, brotliBytes: 53_010, integrity: 'sha384-AAA' },
        'esm/core.js': { bytes: 510, gzipBytes: 250, brotliBytes: 210, integrity: 'sha384-BBB' },
        'types/index.d.ts': { bytes: 1200, gzipBytes: 400, brotliBytes: 350, integrity: 'sha384-CCC' },
        'types/mount.d.ts': { bytes: 800, gzipBytes: 300, brotliBytes: 260, integrity: 'sha384-DDD' },
      },
    };
    expect(formatSizeTable(manifest)).toBe(
      [
        'agent-chat 0.1.0',
        'file                size      gzip    brotli  integrity',
        'agent-chat.js  182.33 KB  61.14 KB  53.01 KB  sha384-AAA',
        'esm/core.js      0.51 KB   0.25 KB   0.21 KB  sha384-BBB',
        '+ 2 type declaration files (2.00 KB), listed in dist/manifest.json',
      ].join('\n'),
    );
  });

  test('formats kilobytes as thousands of bytes', () => {
    expect(formatKb(55_000)).toBe('55.00 KB');
    expect(formatKb(1)).toBe('0.00 KB');
  });
});

describe('checkSizeBudget', () => {
  const file = (gzipBytes: number) => ({ bytes: 3 * gzipBytes, gzipBytes, brotliBytes: 40_000, integrity: 'sha384-x' });

  test('passes at exactly the budget and fails one byte over, naming both sizes', () => {
    expect(checkSizeBudget({ name: 'agent-chat.js', file: file(65_000), budgetBytes: IIFE_GZIP_BUDGET_BYTES })).toEqual(
      {
        isWithin: true,
        message:
          'size check passed — agent-chat.js: 65.00 KB gzip (65000 bytes, brotli 40000 bytes), budget 65.00 KB gzip (65000 bytes)',
      },
    );
    expect(checkSizeBudget({ name: 'agent-chat.js', file: file(65_001), budgetBytes: IIFE_GZIP_BUDGET_BYTES })).toEqual(
      {
        isWithin: false,
        message:
          'size check FAILED — agent-chat.js: 65.00 KB gzip (65001 bytes, brotli 40000 bytes), budget 65.00 KB gzip (65000 bytes)',
      },
    );
  });
});
