import type { EventEnvelope, RunResource } from '../../../core/protocol.ts';
import { createSseParser } from '../../../core/sse/parse-sse-stream.ts';
import { foldExecutorEvents } from '../../../core/state/fold-executor-events.ts';
import { reduceRunEvents } from '../../../core/state/run-reducer.ts';
import { createScriptedModel } from '../../models/scripted-model.ts';
import type { TestServer, TestServerOptions } from '../../test-support/start-test-server.ts';
import { startTestServer } from '../../test-support/start-test-server.ts';
import { createDemoTools } from '../../tools/demo-tools.ts';
import { createRunEngine } from '../create-run-engine.ts';
import type { EngineLogEntry, RunEngineOptions } from '../engine-options.ts';

/** The real engine with fast scripted delays behind the real handler, plus stream helpers. */
export interface EngineServer extends TestServer {
  /** What the engine logged (kept out of the test output). */
  logs: EngineLogEntry[];
  /** Opens `GET /runs/{runId}/events` as `user` and reads it in the background. */
  follow(runId: string, user?: string): Promise<FollowedRun>;
  /** `GET /runs/{runId}` as `user`, parsed. */
  resource(runId: string, user?: string): Promise<RunResource>;
}

/** A run's event stream being read in the background. */
export interface FollowedRun {
  /** The events received so far. */
  events(): EventEnvelope[];
  /** Resolves with the events once `predicate` holds for them (checked after every frame). */
  until(predicate: (events: readonly EventEnvelope[]) => boolean): Promise<EventEnvelope[]>;
  /** Resolves with every event when the server ends the stream (after the terminal event). */
  done: Promise<EventEnvelope[]>;
}

/**
 * Starts `createAgentHandler` with `createRunEngine` on 127.0.0.1:0: the scripted model and the
 * demo tools run with millisecond delays (`/slow` streams for 5 s unless cancelled), retries back
 * off by about a millisecond, and `engine` overrides any of it (its `limits` are merged);
 * `handler` sets the handler's own options (e.g. its `limits` or `canUseExecutor`).
 * Subjects authenticate with the `x-test-user` header.
 */
export async function startEngineServer(
  options: { engine?: RunEngineOptions; handler?: Omit<TestServerOptions, 'engine'> } = {},
): Promise<EngineServer> {
  const logs: EngineLogEntry[] = [];
  const { limits, ...engineOptions } = options.engine ?? {};
  const engine = createRunEngine({
    model: createScriptedModel({ delayMs: 1, slowDelayMs: 5, slowDurationMs: 5000 }),
    tools: createDemoTools({ stepMs: 5 }),
    log: (entry) => logs.push(entry),
    ...engineOptions,
    limits: { retryBaseMs: 1, deltaFlushMs: 5, ...limits },
  });
  const server = await startTestServer({ ...options.handler, engine });

  const follow = async (runId: string, user = 'alice'): Promise<FollowedRun> => {
    const response = await server.request(`/runs/${runId}/events`, { user });
    if (response.status !== 200) throw new Error(`events answered ${response.status}`);
    const events: EventEnvelope[] = [];
    const waiters = new Set<() => void>();
    const parser = createSseParser({
      onFrame: (frame) => {
        events.push(JSON.parse(frame.data) as EventEnvelope);
        for (const check of [...waiters]) check();
      },
    });
    const done = (async () => {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done: isDone, value } = await reader.read();
        if (isDone) break;
        parser.push(value);
      }
      return [...events];
    })();
    // A stream torn down with the server must not become an unhandled rejection.
    done.catch(() => undefined);
    const until: FollowedRun['until'] = (predicate) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(events)) return;
          waiters.delete(check);
          resolve([...events]);
        };
        waiters.add(check);
        check();
        done.then(() => {
          if (waiters.delete(check))
            reject(
              new Error(
                `the stream ended before the condition held:\n${events.map((e) => `${e.seq} ${e.type}`).join('\n')}`,
              ),
            );
        }, reject);
      });
    return { events: () => [...events], until, done };
  };

  const resource = async (runId: string, user = 'alice'): Promise<RunResource> => {
    const response = await server.request(`/runs/${runId}`, { user });
    if (response.status !== 200) throw new Error(`GET /runs answered ${response.status}`);
    return (await response.json()) as RunResource;
  };

  return { ...server, logs, follow, resource };
}

/** The run resource the reducer builds from `events` (what `GET /runs/{id}` must equal). */
export function resourceFromEvents(events: readonly EventEnvelope[]): RunResource {
  const snapshot = reduceRunEvents(events, undefined, foldExecutorEvents);
  return {
    ...snapshot,
    createdAt: new Date(snapshot.createdAt ?? 0).toISOString(),
    updatedAt: new Date(snapshot.updatedAt ?? 0).toISOString(),
  };
}
