import { extensionOf, MEDIA_TYPE_BY_EXTENSION } from '../../core/protocol/attachment-types.ts';

/** The images a vision model gets as image parts, each with the bytes its files start with. */
const IMAGE_SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  'image/webp': (b) => startsWith(b, ascii('RIFF')) && startsWith(b.subarray(8), ascii('WEBP')),
};

/** Text the model reads as text: plain text, Markdown, CSV, JSON and source code. */
const TEXT_TYPES = [
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'text/javascript',
  'text/x-typescript',
  'text/x-python',
  'text/x-java',
  'text/x-c',
  'text/x-go',
  'text/x-rust',
  'text/x-shellscript',
  'text/yaml',
] as const;

/** The default allow-list of `attachmentTypes` (docs/protocol.md §5.8). */
export const DEFAULT_ATTACHMENT_TYPES: readonly string[] = [...Object.keys(IMAGE_SIGNATURES), ...TEXT_TYPES];

/** Types never taken, even when a product lists them: a browser could run them (HTML, SVG, XML). */
const NEVER_TAKEN = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml']);

/** Markup a browser would render, which no text attachment may start with. */
const MARKUP_START = /^(?:\uFEFF)?\s*<(?:!doctype|html|head|body|script|svg|\?xml|iframe|object|embed)\b/i;

/** What {@link verifyMediaType} decided. */
export type MediaTypeCheck =
  | { kind: 'accepted'; mediaType: string }
  /** `not_allowed`: the type is not on the list; `content_mismatch`: the bytes are not that type. */
  | { kind: 'refused'; mediaType: string; reason: 'not_allowed' | 'content_mismatch' };

/** A check of a file's bytes as they arrive, begun by {@link startMediaTypeCheck} once its type is allowed. */
export interface ContentCheck {
  readonly mediaType: string;
  /** Checks the next bytes; false once the file can no longer be its type (stop reading it). */
  push(chunk: Uint8Array): boolean;
  /** The verdict once every byte was pushed. */
  finish(): MediaTypeCheck;
}

/** The bytes an image signature needs (WebP's is 12 long); markup is looked for in this many characters. */
const SIGNATURE_BYTES = 16;
const MARKUP_CHARS = 512;

/**
 * Decides a file's media type from what the client declared (or, for `application/octet-stream`
 * and none, its name's extension) and the allow-list before any byte is read: a type off the list
 * is refused at once (`not_allowed`); else the returned {@link ContentCheck} checks the file's own
 * bytes as they arrive, holding only their start: an image must start with its format's
 * signature; text must be UTF-8 without NUL bytes and not start as HTML, SVG or XML markup. Only
 * those four image formats and text types are ever taken (never HTML, SVG or XML), whatever the
 * list says.
 */
export function startMediaTypeCheck(file: {
  declaredType: string;
  name: string;
  allowed: readonly string[];
}): ContentCheck | (MediaTypeCheck & { kind: 'refused' }) {
  const declared = file.declaredType.split(';')[0]?.trim().toLowerCase() ?? '';
  const mediaType =
    declared === '' || declared === 'application/octet-stream'
      ? (MEDIA_TYPE_BY_EXTENSION[extensionOf(file.name)] ?? declared)
      : declared;
  const isKnownKind = isImageType(mediaType) || isTextType(mediaType);
  if (!isKnownKind || !file.allowed.includes(mediaType)) {
    return {
      kind: 'refused',
      mediaType: mediaType === '' ? 'application/octet-stream' : mediaType,
      reason: 'not_allowed',
    };
  }
  const signature = IMAGE_SIGNATURES[mediaType];
  const content = signature === undefined ? checkPlainText() : checkSignature(signature);
  return {
    mediaType,
    push: (chunk) => content.push(chunk),
    finish: () =>
      content.finish() ? { kind: 'accepted', mediaType } : { kind: 'refused', mediaType, reason: 'content_mismatch' },
  };
}

/** {@link startMediaTypeCheck} of a whole file at once. Pure. */
export function verifyMediaType(file: {
  declaredType: string;
  name: string;
  bytes: Uint8Array;
  allowed: readonly string[];
}): MediaTypeCheck {
  const check = startMediaTypeCheck(file);
  if ('kind' in check) return check;
  check.push(file.bytes);
  return check.finish();
}

/** Whether a verified type reaches the model as an image part. */
export function isImageType(mediaType: string): boolean {
  return mediaType in IMAGE_SIGNATURES;
}

/** Whether a type is text the model reads as text (`text/*` and JSON, never HTML or XML). */
export function isTextType(mediaType: string): boolean {
  if (NEVER_TAKEN.has(mediaType)) return false;
  return mediaType.startsWith('text/') || (TEXT_TYPES as readonly string[]).includes(mediaType);
}

interface BytesCheck {
  push(chunk: Uint8Array): boolean;
  finish(): boolean;
}

/** An image: its first bytes must be its format's signature. */
function checkSignature(signature: (bytes: Uint8Array) => boolean): BytesCheck {
  const head = new Uint8Array(SIGNATURE_BYTES);
  let length = 0;
  return {
    push(chunk) {
      const taken = chunk.subarray(0, SIGNATURE_BYTES - length);
      head.set(taken, length);
      length += taken.byteLength;
      return length < SIGNATURE_BYTES || signature(head);
    },
    finish: () => signature(head.subarray(0, length)),
  };
}

/** Text: UTF-8 without NUL bytes whose first characters are not markup a browser would render. */
function checkPlainText(): BytesCheck {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = '';
  let isText = true;
  const decode = (chunk?: Uint8Array): void => {
    if (!isText) return;
    try {
      const text = chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
      if (head.length < MARKUP_CHARS) head += text.slice(0, MARKUP_CHARS - head.length);
    } catch {
      isText = false;
    }
  };
  return {
    push(chunk) {
      if (chunk.includes(0)) isText = false;
      decode(chunk);
      return isText && !(head.length >= MARKUP_CHARS && MARKUP_START.test(head));
    },
    finish() {
      decode();
      return isText && !MARKUP_START.test(head);
    },
  };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, index) => bytes[index] === value);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}
