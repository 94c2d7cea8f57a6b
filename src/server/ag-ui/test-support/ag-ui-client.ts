import type { BaseEvent, Message, ResumeEntry } from '@ag-ui/client';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { createSseParser } from '../../../core/sse/parse-sse-stream.ts';

/** A real `@ag-ui/client` `HttpAgent` against our `/ag-ui` endpoint, with the raw wire events of each run. */
export interface AgUiTestClient {
  agent: HttpAgent;
  /** Every event the server sent (parsed from the raw SSE, before the client's own processing), by run. */
  wireEvents(): Record<string, unknown>[];
  /** The wire events that `@ag-ui/core`'s `EventSchemas` refuses, with the reason. */
  invalidEvents(): { event: unknown; issue: string }[];
  /** Adds a user message and runs the agent; resolves with the events its subscriber saw. */
  send(text: string, options?: { runId?: string }): Promise<BaseEvent[]>;
  /** Runs the agent with resume answers (no new message). */
  resume(resume: ResumeEntry[], options?: { runId?: string }): Promise<BaseEvent[]>;
}

let messageCounter = 0;

/**
 * Creates an `HttpAgent` for `url` as `user` (the test server's `x-test-user` login). Its `fetch`
 * tees each response body, so the test sees exactly the bytes the server sent.
 */
export function createAgUiTestClient(options: {
  url: string;
  user: string;
  threadId?: string;
  headers?: Record<string, string>;
}): AgUiTestClient {
  const wire: Record<string, unknown>[] = [];
  const teeingFetch = async (url: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (response.body === null) return response;
    const [forClient, forTest] = response.body.tee();
    const parser = createSseParser({
      onFrame: (frame) => wire.push(JSON.parse(frame.data) as Record<string, unknown>),
    });
    void (async () => {
      const reader = forTest.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          parser.push(value);
        }
      } catch {
        // An aborted run ends the body with an error; what arrived was recorded.
      }
    })();
    return new Response(forClient, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const agent = new HttpAgent({
    url: options.url,
    headers: { 'x-test-user': options.user, ...options.headers },
    fetch: teeingFetch,
    ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
  });
  const run = async (parameters: Parameters<HttpAgent['runAgent']>[0]): Promise<BaseEvent[]> => {
    const seen: BaseEvent[] = [];
    await agent.runAgent(parameters, { onEvent: ({ event }) => void seen.push(event) });
    return seen;
  };
  return {
    agent,
    wireEvents: () => wire,
    invalidEvents: () =>
      wire.flatMap((event) => {
        const parsed = EventSchemas.safeParse(event);
        return parsed.success ? [] : [{ event, issue: parsed.error.message }];
      }),
    send: (text, sendOptions = {}) => {
      messageCounter += 1;
      const message: Message = { id: `user-${messageCounter}`, role: 'user', content: text };
      agent.addMessage(message);
      return run(sendOptions.runId === undefined ? {} : { runId: sendOptions.runId });
    },
    resume: (resume, resumeOptions = {}) =>
      run({ resume, ...(resumeOptions.runId === undefined ? {} : { runId: resumeOptions.runId }) }),
  };
}
