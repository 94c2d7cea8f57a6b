import type { IncomingMessage } from 'node:http';
import { RequestAbortedError } from '../http/request-body.ts';

/**
 * The Web `Request` of a Node request, for the fetch core: its absolute `url`, method, headers,
 * `signal` (the adapter aborts it when the client goes), and its body as a stream read only when
 * the core reads it ({@link readableBodyOf}). A request Node says has no body (no
 * `Content-Length`, or `0`, and no `Transfer-Encoding`) has a null body. Throws a `TypeError` for
 * what a `Request` cannot carry (a `TRACE` method, a header value outside Latin-1).
 */
export function toWebRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: readableBodyOf(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * The body of `req` as a byte stream that reads the socket only while the reader asks (one chunk
 * per read, the request paused in between), so nothing is read before the core wants it and its
 * body timeout starts at its own first read. Cancelling it pauses the request without destroying
 * the socket (a `413` or `408` is still written on it); a client that leaves first errors it with
 * {@link RequestAbortedError}.
 */
export function readableBodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let isListening = false;
  const detach: Array<() => void> = [];
  const stopListening = (): void => {
    for (const off of detach.splice(0)) off();
    // A late `error` (ECONNRESET) after we stopped must not be unhandled.
    req.on('error', () => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!isListening) {
          isListening = true;
          // Reset while an earlier step (authentication) was awaited: Node has already destroyed it.
          if (req.destroyed && !req.complete) {
            controller.error(new RequestAbortedError());
            return;
          }
          const onData = (chunk: Buffer): void => {
            req.pause();
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          };
          const onEnd = (): void => {
            stopListening();
            controller.close();
          };
          // `error` ("aborted") or `close` before `end`: the client is gone.
          const onGone = (): void => {
            stopListening();
            controller.error(new RequestAbortedError());
          };
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onGone);
          req.on('close', onGone);
          detach.push(
            () => req.off('data', onData),
            () => req.off('end', onEnd),
            () => req.off('error', onGone),
            () => req.off('close', onGone),
          );
        }
        req.resume();
      },
      cancel() {
        stopListening();
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}
