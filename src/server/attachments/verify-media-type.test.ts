import { describe, expect, it } from 'vitest';
import { DEFAULT_ATTACHMENT_TYPES, startMediaTypeCheck, verifyMediaType } from './verify-media-type.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const check = (declaredType: string, name: string, bytes: Uint8Array) =>
  verifyMediaType({ declaredType, name, bytes, allowed: DEFAULT_ATTACHMENT_TYPES });

describe('verifyMediaType', () => {
  it('takes a PNG whose bytes are a PNG', () => {
    expect(check('image/png', 'shot.png', PNG)).toEqual({ kind: 'accepted', mediaType: 'image/png' });
  });

  it('refuses HTML named .png and declared image/png: the bytes are not a PNG', () => {
    expect(check('image/png', 'shot.png', text('<html><script>alert(1)</script></html>'))).toEqual({
      kind: 'refused',
      mediaType: 'image/png',
      reason: 'content_mismatch',
    });
  });

  it('refuses SVG and HTML even when a product lists them', () => {
    const allowed = [...DEFAULT_ATTACHMENT_TYPES, 'image/svg+xml', 'text/html'];
    for (const [type, name] of [
      ['image/svg+xml', 'logo.svg'],
      ['text/html', 'page.html'],
    ] as const) {
      expect(verifyMediaType({ declaredType: type, name, bytes: text('<svg></svg>'), allowed })).toMatchObject({
        kind: 'refused',
        reason: 'not_allowed',
      });
    }
  });

  it('refuses text that starts as markup, and binary bytes declared as text', () => {
    expect(check('text/plain', 'notes.txt', text('  <!DOCTYPE html><p>hi'))).toMatchObject({
      reason: 'content_mismatch',
    });
    expect(check('text/csv', 'data.csv', Uint8Array.from([0x61, 0, 0x62]))).toMatchObject({
      reason: 'content_mismatch',
    });
    expect(check('text/csv', 'data.csv', Uint8Array.from([0xc3, 0x28]))).toMatchObject({ reason: 'content_mismatch' });
  });

  it('names an unnamed type by the extension, and refuses one off the list naming it', () => {
    expect(check('', 'data.csv', text('a,b\n1,2\n'))).toEqual({ kind: 'accepted', mediaType: 'text/csv' });
    expect(check('application/octet-stream', 'main.py', text('print(1)\n'))).toEqual({
      kind: 'accepted',
      mediaType: 'text/x-python',
    });
    expect(check('application/pdf', 'paper.pdf', text('%PDF-1.7'))).toEqual({
      kind: 'refused',
      mediaType: 'application/pdf',
      reason: 'not_allowed',
    });
  });
});

describe('startMediaTypeCheck', () => {
  const start = (declaredType: string, name: string) =>
    startMediaTypeCheck({ declaredType, name, allowed: DEFAULT_ATTACHMENT_TYPES });
  const inPieces = (bytes: Uint8Array, size: number): Uint8Array[] =>
    Array.from({ length: Math.ceil(bytes.byteLength / size) }, (_, index) =>
      bytes.subarray(index * size, (index + 1) * size),
    );

  it('refuses a type off the list before any byte is read', () => {
    expect(start('application/pdf', 'paper.pdf')).toEqual({
      kind: 'refused',
      mediaType: 'application/pdf',
      reason: 'not_allowed',
    });
  });

  it('decides a file split anywhere as it decides the whole file', () => {
    const files: [string, string, Uint8Array][] = [
      ['image/png', 'shot.png', PNG],
      ['image/png', 'shot.png', text('<html>')],
      ['text/plain', 'notes.txt', text('Zürich, 東京 and 🙂 ')],
      ['text/plain', 'notes.txt', text(`${' '.repeat(600)}<html>`)],
      ['text/plain', 'notes.txt', text('  <svg onload=x()>')],
      ['text/csv', 'data.csv', Uint8Array.from([0x61, 0xf0, 0x9f, 0x99])],
    ];
    for (const [type, name, bytes] of files) {
      for (const size of [1, 2, 3, 7]) {
        const check = start(type, name);
        if ('kind' in check) throw new Error(`${type} refused at once`);
        for (const piece of inPieces(bytes, size)) check.push(piece);
        expect(check.finish()).toEqual(
          verifyMediaType({ declaredType: type, name, bytes, allowed: DEFAULT_ATTACHMENT_TYPES }),
        );
      }
    }
  });

  it('says as soon as it can that the bytes are not the type, so the rest is never read', () => {
    const image = start('image/png', 'shot.png');
    const csv = start('text/csv', 'data.csv');
    if ('kind' in image || 'kind' in csv) throw new Error('refused at once');
    expect(image.push(PNG.subarray(0, 4))).toBe(true);
    expect(image.push(text('not the rest of a PNG'))).toBe(false);
    expect(csv.push(text('a,b\n'))).toBe(true);
    expect(csv.push(Uint8Array.from([0x31, 0, 0x32]))).toBe(false);
  });
});
