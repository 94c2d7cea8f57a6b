import { createSseParser } from '../../src/core/sse/parse-sse-stream.ts';
import type { EventEnvelope } from '../../src/core/protocol.ts';
import { isTerminalEvent } from '../../src/core/protocol.ts';

/** One signed-in demo user talking raw HTTP to a demo server's agent API (`<url>/api/agent/v1`). */
export interface DemoUser {
  /** The identity `bootstrap` gave this user on the first call (sent as `X-Agent-Identity`). */
  identityId: string;
  /** The agent version to create runs with. */
  agentVersionId: string;
  /** Sends a request to `path` under `/api/agent/v1` of `serverUrl` with the user's cookie and identity. */
  request(
    serverUrl: string,
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
}

/** Bootstraps `cookie`'s user on `serverUrl` and returns it (identity and agent version from the answer). */
export async function signInDemoUser(serverUrl: string, cookie: string): Promise<DemoUser> {
  const send = (
    url: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    identityId?: string,
  ) =>
    fetch(`${url}/api/agent/v1${path}`, {
      method: init.method ?? 'GET',
      headers: {
        cookie,
        ...(identityId === undefined ? {} : { 'x-agent-identity': identityId }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const bootstrap = (await (await send(serverUrl, '/bootstrap')).json()) as {
    identity: { identityId: string };
    agent: { versionId: string };
  };
  const identityId = bootstrap.identity.identityId;
  return {
    identityId,
    agentVersionId: bootstrap.agent.versionId,
    request: (url, path, init) => send(url, path, init, identityId),
  };
}

/** A run's SSE stream being read: the events so far, and when it ends. */
export interface RunStreamReader {
  events: EventEnvelope[];
  /** Resolves once `count` events have arrived (or the stream ended with fewer). */
  waitForCount(count: number): Promise<EventEnvelope[]>;
  /** Resolves with every event once the stream has ended (after its terminal event, or when the server closed it). */
  done: Promise<EventEnvelope[]>;
}

/** Opens `GET /runs/{runId}/events` on `serverUrl` after `afterSeq` as `user` and reads it to its end. */
export function readRunStream(user: DemoUser, serverUrl: string, runId: string, afterSeq = 0): RunStreamReader {
  const events: EventEnvelope[] = [];
  const waiters: { count: number; resolve: (events: EventEnvelope[]) => void }[] = [];
  const settle = (isEnded: boolean): void => {
    for (const waiter of [...waiters]) {
      if (!isEnded && events.length < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(events);
    }
  };
  const done = (async () => {
    try {
      const response = await user.request(serverUrl, `/runs/${runId}/events?after=${afterSeq}`);
      const parser = createSseParser({
        onFrame: (frame) => {
          events.push(JSON.parse(frame.data) as EventEnvelope);
          settle(false);
        },
      });
      const reader = response.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (chunk === undefined || chunk.done) break;
        parser.push(chunk.value);
        const last = events[events.length - 1];
        if (last !== undefined && isTerminalEvent(last)) {
          await reader?.cancel();
          break;
        }
      }
    } catch {
      // The server went away mid-stream (a killed process): what arrived is the answer.
    }
    settle(true);
    return events;
  })();
  return {
    events,
    waitForCount: (count) =>
      new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle(false);
      }),
    done,
  };
}
