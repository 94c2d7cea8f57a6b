/**
 * `response` with `headers` added (`Vary` is appended to, never replaced); `Response.error()`,
 * whose headers cannot change, is returned as it is.
 */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (response.type === 'error') return response;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'vary') response.headers.append(name, value);
    else response.headers.set(name, value);
  }
  return response;
}

/**
 * `response` with `onDone` called exactly once when its answer is over: its body read to the end,
 * failed or cancelled by its reader (a client that left), or at once when it has none. The body is
 * passed through one chunk per read (nothing is read ahead), so its backpressure is kept.
 */
export function whenBodyDone(response: Response, onDone: () => void): Response {
  let isDone = false;
  const done = (): void => {
    if (isDone) return;
    isDone = true;
    onDone();
  };
  const body = response.body;
  if (body === null || response.type === 'error') {
    done();
    return response;
  }
  const reader = body.getReader();
  const passed = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            controller.close();
            done();
          } else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
          done();
        }
      },
      async cancel(reason) {
        done();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(passed, { status: response.status, statusText: response.statusText, headers: response.headers });
}
