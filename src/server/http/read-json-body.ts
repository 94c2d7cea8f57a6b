import type { IncomingMessage } from 'node:http';
import { fail } from './problem-error.ts';

/**
 * Reads a request body as JSON, never more than `maxBytes`. Throws `413 PAYLOAD_TOO_LARGE` as
 * soon as the declared or received size passes the cap (it stops reading; the handler closes the
 * connection), `422 VALIDATION_FAILED` for bytes that are not UTF-8 JSON. An empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) tooLarge(maxBytes);
  const chunks = await collect(req, maxBytes);
  const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
  if (size === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return fail({ code: 'VALIDATION_FAILED', detail: 'The request body is not valid UTF-8.' });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The request body is not valid JSON.',
      details: { reason: 'malformed_json' },
    });
  }
}

function tooLarge(maxBytes: number): never {
  return fail({
    code: 'PAYLOAD_TOO_LARGE',
    detail: `The body may be at most ${maxBytes} bytes.`,
    details: { maxRequestBytes: maxBytes },
  });
}

// Listeners rather than `for await`: leaving an async iterator early destroys the socket, and
// the 413 answer still has to be written on it.
function collect(req: IncomingMessage, maxBytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        try {
          tooLarge(maxBytes);
        } catch (error) {
          reject(error as Error);
        }
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
