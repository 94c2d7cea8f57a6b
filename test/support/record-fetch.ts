/** One request the client made, as sent. */
export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: string | null;
}

/** A canned answer for a request, instead of (or after) the real one. */
export interface InjectedResponse {
  match: (request: RecordedRequest) => boolean;
  /** When true the request still reaches the server first and its answer is thrown away (a lost response). */
  isForwarded: boolean;
  response: () => Response;
}

/** A fetch that records every request and can answer some of them itself. */
export interface RecordingFetch {
  fetch: typeof fetch;
  readonly requests: readonly RecordedRequest[];
  /** Queues a one-shot injected answer; answers are used in the order they were queued. */
  inject(response: InjectedResponse): void;
}

/** Wraps the global fetch to record requests (method, path, key, exact body) and inject answers. */
export function createRecordingFetch(): RecordingFetch {
  const requests: RecordedRequest[] = [];
  const injections: InjectedResponse[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      idempotencyKey: headers.get('idempotency-key'),
      body: typeof init?.body === 'string' ? init.body : null,
    };
    requests.push(request);
    const index = injections.findIndex((injection) => injection.match(request));
    if (index < 0) return fetch(input, init);
    const [injection] = injections.splice(index, 1);
    if (injection?.isForwarded) await (await fetch(input, init)).text();
    return (injection as InjectedResponse).response();
  };
  return { fetch: recordingFetch, requests, inject: (injection) => injections.push(injection) };
}
