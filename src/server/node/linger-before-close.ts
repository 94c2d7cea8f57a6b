import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long and how much of a refused body is still read after its answer (docs/server.md, "Refused bodies"). */
export interface LingerLimits {
  /** The connection is closed at the latest this long after the answer starts, in ms. */
  maxMs: number;
  /** ... or as soon as this many bytes of the body have been read and thrown away. */
  maxBytes: number;
}

/**
 * The lingering of the Node adapter: 2 s, time enough for a client to read its answer, and 8 MiB,
 * what an upload a little past its limit still sends.
 */
export const DEFAULT_LINGER_LIMITS: LingerLimits = { maxMs: 2_000, maxBytes: 8 * 1024 * 1024 };

/**
 * Closes the connection of `req` lingering, when its answer closes it (`Connection: close`)
 * before its body has arrived whole (a refusal: `413`, `408`, `429`, `503`...): once the answer
 * is written the connection is half-closed (the client reads the answer, then the end), and what
 * the client still sends is read and thrown away until its body ends, `limits.maxBytes` have been
 * read, or `limits.maxMs` have passed, then the socket is destroyed. Call it before the answer is
 * ended; it does nothing when the body is already whole. Requests the client pipelines behind the
 * body are not answered.
 */
export function lingerBeforeClose(req: IncomingMessage, limits: LingerLimits = DEFAULT_LINGER_LIMITS): void {
  const socket = req.socket as Socket | null;
  if (req.complete || socket === null || socket.destroyed) return;
  let isAnswered = false;
  let isBodyOver = false;
  let drainedBytes = 0;
  const destroy = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(destroy, limits.maxMs);
  timer.unref();
  const closeOnceBoth = (): void => {
    if (!isAnswered || !isBodyOver) return;
    // Nothing is left unread: a plain close, once the answer and its end are flushed.
    if (socket.writableFinished) destroy();
    else socket.once('finish', destroy);
  };
  req.on('data', (chunk: Buffer) => {
    drainedBytes += chunk.byteLength;
    if (drainedBytes > limits.maxBytes) destroy();
  });
  req.once('end', () => {
    isBodyOver = true;
    closeOnceBoth();
  });
  // A client that resets meanwhile is gone, nothing more.
  req.on('error', () => undefined);
  socket.once('close', () => clearTimeout(timer));
  // Node ends an exchange whose answer says `Connection: close` with `destroySoon()`, which closes
  // the descriptor as soon as the answer is flushed. Closed with unread input, a TCP socket sends
  // a reset, and a client still writing its body then fails (EPIPE) or drops the answer it had
  // not read yet (ECONNRESET). Only its end is sent here; the close waits for the body.
  socket.destroySoon = () => {
    socket.end();
    isAnswered = true;
    closeOnceBoth();
  };
  req.resume();
}
