import type { Page } from '@playwright/test';
import type { DemoWindow } from './chat.ts';

/** One event of a run's log as the tests read it. */
export interface LoggedEvent {
  seq: number;
  type: string;
  timestamp: number;
  data: Record<string, unknown>;
}

/** What the e2e pages keep about their browser tools (see {@link installTestTools}). */
export interface ToolTestWindow extends DemoWindow {
  toolDiagnostics?: string[];
  toolAborts?: string[];
}

/**
 * Adds three test tools to the demo page's tools, on every load of the page (so a reload keeps
 * them), through the demo's `agentChatDemoToolsForTests` seam: `test.hold` (counts its runs in
 * localStorage, reports progress, never settles and records an abort without confirming it),
 * `test.cancellable` (waits for its signal, then confirms with `BusinessCancelled`) and
 * `test.quick` (returns `{ ok: true, run }`). The runner reports diagnostics to
 * `window.toolDiagnostics`; `reconcile` answers a confirmed completion only when localStorage
 * `e2e:reconcile` is `completed`.
 */
export async function installTestTools(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const target = window as ToolTestWindow & {
      agentChatDemoToolsForTests?: unknown;
      AgentChatTools?: { BusinessCancelled: new (message?: string) => Error };
    };
    target.toolDiagnostics = [];
    target.toolAborts = [];
    const countRun = (name: string): number => {
      const runs = Number(localStorage.getItem(`e2e:runs:${name}`) ?? '0') + 1;
      localStorage.setItem(`e2e:runs:${name}`, String(runs));
      return runs;
    };
    const noArguments = { type: 'object', properties: {}, additionalProperties: false };
    target.agentChatDemoToolsForTests = {
      tools: {
        'test.hold': {
          description: 'Holds on forever (an e2e test tool).',
          parameters: noArguments,
          policy: 'allow',
          run: (_args: unknown, context: { signal: AbortSignal; progress(message: string): void }) => {
            countRun('test.hold');
            context.progress('Holding on');
            context.signal.addEventListener('abort', () => target.toolAborts?.push(String(context.signal.reason)));
            return new Promise(() => undefined);
          },
        },
        'test.cancellable': {
          description: 'Waits for its signal (an e2e test tool).',
          parameters: noArguments,
          policy: 'allow',
          run: (_args: unknown, context: { signal: AbortSignal }) => {
            countRun('test.cancellable');
            return new Promise((_resolve, reject) => {
              context.signal.addEventListener('abort', () => {
                target.toolAborts?.push(String(context.signal.reason));
                reject(
                  new (target.AgentChatTools as { BusinessCancelled: new (m: string) => Error }).BusinessCancelled(
                    'Stopped cleanly.',
                  ),
                );
              });
            });
          },
        },
        'test.quick': {
          description: 'Answers at once (an e2e test tool).',
          parameters: noArguments,
          policy: 'allow',
          run: () => ({ ok: true, run: countRun('test.quick') }),
        },
      },
      runner: {
        onDiagnostic: (call: { name: string }, state: string) => target.toolDiagnostics?.push(`${call.name} ${state}`),
        reconcile: () =>
          localStorage.getItem('e2e:reconcile') === 'completed'
            ? { status: 'completed', result: { reconciled: true } }
            : null,
      },
    };
  });
}

/** How many times the test tool `name` ran in this browser profile (across reloads and tabs). */
export function countToolRuns(page: Page, name: string): Promise<number> {
  return page.evaluate((tool) => Number(localStorage.getItem(`e2e:runs:${tool}`) ?? '0'), name);
}

/** The receipts the page's IndexedDB store holds for its identity (`[]` when none). */
export function readStoredReceipts(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(async () => {
    const identity = (window as DemoWindow).agentChatDemo?.inline.client.getState().bootstrap?.identity.identityId;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(`agent-chat-tools:${identity}`);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('receipts')) return [];
      return await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
        const request = db.transaction('receipts').objectStore('receipts').getAll();
        request.onsuccess = () => resolve(request.result as Array<Record<string, unknown>>);
        request.onerror = () => reject(request.error);
      });
    } finally {
      db.close();
    }
  });
}

/** The run's whole log, read from the real server's event stream (the run must have ended). */
export function readRunLog(page: Page, runId: string): Promise<LoggedEvent[]> {
  return page.evaluate(async (id) => {
    const identity = (window as DemoWindow).agentChatDemo?.inline.client.getState().bootstrap?.identity.identityId;
    const response = await fetch(`/api/agent/v1/runs/${id}/events?after=0`, {
      headers: { 'agent-protocol': '1', 'x-agent-identity': identity ?? '' },
    });
    const text = await response.text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as LoggedEvent);
  }, runId);
}

/** The events of the log that concern browser calls, as `seq type detail` lines with times relative to the first. */
export function describeTimeline(events: readonly LoggedEvent[]): string[] {
  const start = events[0]?.timestamp ?? 0;
  const interesting = /TOOL_CALL|RUN_STATUS|RUN_FINISHED|RUN_ERROR|INTERRUPT/;
  return events
    .filter((event) => interesting.test(event.type))
    .map((event) => {
      const { kind, status, executorId, receiptId, code } = event.data as Record<string, string | undefined>;
      const detail = [kind, status, code, executorId, receiptId].filter((part) => part !== undefined).join(' ');
      return `seq ${event.seq} +${event.timestamp - start} ms ${event.type} ${detail}`.trim();
    });
}
