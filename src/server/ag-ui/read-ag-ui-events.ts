import type { Event as AgUiEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { parseSseStream } from '../../core/sse/parse-sse-stream.ts';
import { ModelError } from '../models/model-adapter.ts';

/**
 * Reads an AG-UI agent's SSE body as events, each validated by `@ag-ui/core`'s `EventSchemas`
 * (unknown members are kept, as the schemas allow). A frame that is not JSON or not a valid event
 * throws a non-retryable `ModelError` (the agent speaks something else); aborting `signal` cancels
 * the body.
 */
export async function* readAgUiEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<AgUiEvent, void, undefined> {
  for await (const frame of parseSseStream(body, { signal })) {
    let value: unknown;
    try {
      value = JSON.parse(frame.data) as unknown;
    } catch {
      throw unreadable('a frame is not JSON');
    }
    const parsed = EventSchemas.safeParse(value);
    if (!parsed.success) throw unreadable(parsed.error.message);
    yield parsed.data as AgUiEvent;
  }
}

function unreadable(providerMessage: string): ModelError {
  return new ModelError('The agent sent an answer this server cannot read.', { retryable: false, providerMessage });
}
