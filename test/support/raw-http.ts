import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** The first HTTP/1.1 response read off a raw socket. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as sent (a `Content-Length` body; chunked framing is left in place). */
  body: string;
  /** Whether the server closed the connection after answering. */
  isClosed: boolean;
}

/** Opens a TCP connection to `127.0.0.1:port` (resolves once connected). */
export function openRawSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Reads `socket` until one response is complete (its `Content-Length` body has arrived) or the
 * server closes the connection, and parses it. Rejects if nothing arrives and the socket closes.
 */
export function readRawResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = (isClosed: boolean): void => {
      socket.off('data', onData);
      socket.off('close', onClose);
      const parsed = parseResponse(received, isClosed);
      if (parsed === null) reject(new Error(`no complete HTTP response: ${JSON.stringify(received.toString())}`));
      else resolve(parsed);
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      if (parseResponse(received, false) !== null) finish(false);
    };
    const onClose = (): void => finish(true);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', () => undefined);
  });
}

/** Sends `bytes` on a fresh connection and reads the answer (see {@link readRawResponse}). */
export async function sendRawHttp(port: number, bytes: string | Buffer): Promise<RawResponse> {
  const socket = await openRawSocket(port);
  const response = readRawResponse(socket);
  socket.write(bytes);
  try {
    const answer = await response;
    return { ...answer, isClosed: answer.isClosed || (await waitForClose(socket, 2_000)) };
  } finally {
    socket.destroy();
  }
}

/** Resolves true once the server closes `socket`, false if it is still open after `ms`. */
export function waitForClose(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const onGone = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    socket.once('end', onGone);
    socket.once('close', onGone);
    socket.resume();
  });
}

function parseResponse(bytes: Buffer, isClosed: boolean): RawResponse | null {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const body = bytes.subarray(headEnd + 4);
  const length = headers['content-length'];
  if (length !== undefined && body.length < Number(length)) return null;
  if (length === undefined && !isClosed) return null;
  return { status, headers, body: body.toString('utf8'), isClosed };
}

/**
 * Decodes a `Transfer-Encoding: chunked` body (the bytes after the head) as far as it goes: a
 * connection cut inside a chunk yields the bytes of that chunk received so far.
 */
export function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < body.length) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    const start = lineEnd + 2;
    parts.push(body.subarray(start, Math.min(start + size, body.length)));
    offset = start + size + 2;
  }
  return Buffer.concat(parts);
}
