import type { ServerResponse } from 'node:http';
import { lingerBeforeClose } from './linger-before-close.ts';

/**
 * Writes a Web `Response` to a Node response and resolves once it is written or abandoned. A
 * body of known length (`Content-Length`) is written in one piece; any other (an event stream) is
 * copied chunk by chunk, reading the next chunk only after `res` has taken the last one (`drain`),
 * so a client that stops reading stops the stream's producer; a client that leaves cancels the
 * body. `Response.error()`, or a body that fails midway, destroys the connection. An answer with
 * `Connection: close` given before the request's body has arrived whole closes lingering
 * ({@link lingerBeforeClose}), so the client still sending reads it.
 */
export async function writeNodeResponse(response: Response, res: ServerResponse): Promise<void> {
  if (response.type === 'error' || res.destroyed) {
    res.destroy();
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    // The host may vary its answers on more than we do (Express sets its own).
    if (name === 'vary') res.appendHeader(name, value);
    else res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.statusCode = response.status;
  if (response.headers.get('connection')?.toLowerCase() === 'close') lingerBeforeClose(res.req);
  const body = response.body;
  const isHead = res.req.method === 'HEAD';
  if (body === null || isHead || response.headers.has('content-length')) {
    const bytes = body === null || isHead ? null : new Uint8Array(await response.arrayBuffer());
    if (isHead) await body?.cancel().catch(() => undefined);
    res.end(bytes ?? undefined);
    return;
  }
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) res.socket?.setNoDelay(true);
  res.flushHeaders();
  await copyBody(body, res);
}

async function copyBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const onClose = (): void => {
    if (!res.writableFinished) reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  // A write after the client left must not surface as an unhandled `error` on the response.
  res.on('error', () => undefined);
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (res.destroyed) return;
      if (!res.write(next.value)) await drainOrClose(res);
    }
    if (!res.destroyed) res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
