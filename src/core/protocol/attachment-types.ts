/**
 * The media type of an attached file by its name's extension (docs/protocol.md §5.8), for what a
 * browser names badly or not at all: nothing for `.md`, MPEG transport stream for `.ts`. The widget
 * uploads a file as the type its extension gives (else the browser's); the server reads it for a
 * file sent as `application/octet-stream` or without a type. Either way the server then checks
 * the bytes against the type.
 */
export const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  py: 'text/x-python',
  java: 'text/x-java',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c',
  go: 'text/x-go',
  rs: 'text/x-rust',
  sh: 'text/x-shellscript',
  yaml: 'text/yaml',
  yml: 'text/yaml',
};

/** A file name's extension in lower case (`''` when it has none). */
export function extensionOf(name: string): string {
  return /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? '';
}
