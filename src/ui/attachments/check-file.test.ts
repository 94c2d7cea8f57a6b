import { describe, expect, it } from 'vitest';
import type { AttachmentLimits } from '../../core/index.ts';
import { checkFile, mediaTypeOf } from './check-file.ts';

describe('mediaTypeOf', () => {
  it.each<[string, string, string]>([
    ['notes.md', '', 'text/markdown'],
    ['a.ts', 'video/mp2t', 'text/x-typescript'],
    ['View.TSX', 'video/mp2t', 'text/x-typescript'],
    ['report.csv', 'application/vnd.ms-excel', 'text/csv'],
    ['data.JSON', '', 'application/json'],
    ['shot.png', 'image/png', 'image/png'],
    ['photo.jpeg', 'image/jpeg', 'image/jpeg'],
    ['paper.pdf', 'application/pdf', 'application/pdf'],
    ['Makefile', '', 'application/octet-stream'],
    ['archive.unknown', '', 'application/octet-stream'],
  ])('%s typed "%s" by the browser → %s', (name, type, expected) => {
    expect(mediaTypeOf(new File(['x'], name, { type }))).toBe(expected);
  });
});

describe('checkFile', () => {
  const LIMITS: Partial<AttachmentLimits> = {
    maxAttachmentBytes: 1000,
    maxAttachmentsPerMessage: 2,
    attachmentTypes: ['image/png', 'text/csv', 'text/plain'],
  };

  it.each<[string, { size: number; mediaType: string }, number, ReturnType<typeof checkFile>]>([
    ['a file within every limit', { size: 1000, mediaType: 'image/png' }, 1, null],
    [
      'a file one byte too large',
      { size: 1001, mediaType: 'image/png' },
      0,
      { code: 'PAYLOAD_TOO_LARGE', limit: 'maxAttachmentBytes' },
    ],
    [
      'a type not in the list',
      { size: 10, mediaType: 'application/pdf' },
      0,
      { code: 'ATTACHMENT_TYPE_UNSUPPORTED', limit: 'attachmentTypes' },
    ],
    [
      'a file past the count',
      { size: 10, mediaType: 'text/csv' },
      2,
      { code: 'VALIDATION_FAILED', limit: 'maxAttachmentsPerMessage' },
    ],
    [
      'a wrong type that is also too large (type before size)',
      { size: 5000, mediaType: 'application/pdf' },
      0,
      { code: 'ATTACHMENT_TYPE_UNSUPPORTED', limit: 'attachmentTypes' },
    ],
    [
      'a wrong, too large file past the count (count first)',
      { size: 5000, mediaType: 'application/pdf' },
      2,
      { code: 'VALIDATION_FAILED', limit: 'maxAttachmentsPerMessage' },
    ],
  ])('%s', (_, file, filesBefore, expected) => {
    expect(checkFile(file, LIMITS, filesBefore)).toEqual(expected);
  });

  it('checks no limit the server did not give', () => {
    expect(checkFile({ size: 10 ** 9, mediaType: 'application/x-anything' }, {}, 100)).toBe(null);
    expect(checkFile({ size: 10 ** 9, mediaType: 'application/pdf' }, { maxAttachmentsPerMessage: 2 }, 1)).toBe(null);
    expect(
      checkFile({ size: 10 ** 9, mediaType: 'application/pdf' }, { attachmentTypes: ['application/pdf'] }, 9),
    ).toBe(null);
    expect(checkFile({ size: 1001, mediaType: 'application/pdf' }, { maxAttachmentBytes: 1000 }, 9)).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'maxAttachmentBytes',
    });
  });

  it('refuses every file when the server allows none', () => {
    expect(checkFile({ size: 1, mediaType: 'text/plain' }, { maxAttachmentsPerMessage: 0 }, 0)?.code).toBe(
      'VALIDATION_FAILED',
    );
    expect(checkFile({ size: 1, mediaType: 'text/plain' }, { attachmentTypes: [] }, 0)?.code).toBe(
      'ATTACHMENT_TYPE_UNSUPPORTED',
    );
  });
});
