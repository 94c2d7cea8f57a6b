import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import type { ToolReceipt, ToolReceiptStore } from '../src/core/index.ts';
import type { AgentChatToolsGlobal } from '../src/tools/agent-chat-tools-global.ts';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import { chat, readState, waitForDemo } from '../e2e/support/chat.ts';
import { readRunLog, type LoggedEvent, type ToolTestWindow } from '../e2e/support/browser-tools.ts';
import startDemoServer, { E2E_URL_VARIABLE } from '../e2e/support/global-setup.ts';
import { describeMachine } from './support/describe-machine.ts';

// `npm run bench:browser-tool-reload`: the page reloads while a browser tool is in flight, in real
// Chromium against the real demo server (`scripts/start.ts`, as `npm start` runs it, with its SQLite
// storage), once per outcome a reloaded page can reach: the handler was mid-run and nobody can
// tell what it did ("needs reconciliation"); the handler was mid-run and the page's `reconcile`
// confirms what it did; the handler had finished and its final receipt was on its way (the stored
// receipt is delivered again). Each prints one timeline, in ms from the call's announcement: the
// server's events from the run's log, what the page's runner and its IndexedDB store did
// (`onDiagnostic`, every write), and each claim and receipt the server answered. Printing, not
// asserting: the assertions are in e2e/browser-tools.spec.ts.

/** One line of a timeline: when (epoch ms), who saw it, what happened. */
interface Moment {
  at: number;
  source: 'server' | 'page' | 'network' | 'bench';
  what: string;
}

/** What the page's tools read from localStorage (it survives the reload; page state does not). */
interface Scenario {
  title: string;
  tool: 'bench.hold' | 'bench.quick';
  /** `completed`: the page's `reconcile` confirms the call completed; otherwise it knows nothing. */
  reconcile: 'completed' | 'nothing';
  /** Hold the first final receipt in the network, so the reload happens while it is on its way. */
  holdFirstFinal: boolean;
}

const SCENARIOS: Scenario[] = [
  { title: 'mid-run, nothing to reconcile with', tool: 'bench.hold', reconcile: 'nothing', holdFirstFinal: false },
  { title: 'mid-run, reconcile confirms', tool: 'bench.hold', reconcile: 'completed', holdFirstFinal: false },
  { title: 'final receipt on its way', tool: 'bench.quick', reconcile: 'nothing', holdFirstFinal: true },
];

/** Window of the bench page: the demo's seam for tools plus the binding that records moments. */
interface BenchWindow extends ToolTestWindow {
  recordMoment(at: number, what: string): void;
  agentChatDemoToolsForTests?: unknown;
  AgentChatTools?: AgentChatToolsGlobal;
}

/**
 * Gives every page of `context` the tools `bench.hold` (reports progress, never settles) and
 * `bench.quick` (returns at once), an IndexedDB store that records each write, and a runner whose
 * diagnostics and `reconcile` answers are recorded; `reconcile` reads localStorage `bench:reconcile`.
 */
async function installBenchTools(context: BrowserContext, moments: Moment[]): Promise<void> {
  await context.exposeFunction('recordMoment', (at: number, what: string) => {
    moments.push({ at, source: 'page', what });
  });
  // tsx compiles this file keeping function names through a `__name` helper the page lacks.
  await context.addInitScript('globalThis.__name = (target) => target;');
  await context.addInitScript(() => {
    const page = window as unknown as BenchWindow;
    const record = (what: string): void => page.recordMoment(Date.now(), what);
    const noArguments = { type: 'object', properties: {}, additionalProperties: false };
    const recordedStore = (store: ToolReceiptStore): ToolReceiptStore => ({
      ...store,
      async create(receipt: ToolReceipt) {
        const created = await store.create(receipt);
        record(`store: receipt created (${receipt.state})`);
        return created;
      },
      async put(receipt: ToolReceipt) {
        await store.put(receipt);
        const final =
          receipt.final === undefined ? '' : `, ${receipt.final.kind} ${receipt.final.receiptId.slice(0, 12)}…`;
        record(`store: receipt written (${receipt.state}, sequence ${receipt.sequence}${final})`);
      },
      async delete(toolCallId: string) {
        await store.delete(toolCallId);
        record('store: receipt removed');
      },
    });
    page.agentChatDemoToolsForTests = {
      tools: {
        'bench.hold': {
          description: 'Reports progress, then holds on (a benchmark tool).',
          parameters: noArguments,
          policy: 'allow',
          run: (_args: unknown, context: { progress(message: string, fraction: number): void }) => {
            record('handler: started');
            context.progress('Halfway', 0.5);
            return new Promise(() => undefined);
          },
        },
        'bench.quick': {
          description: 'Answers at once (a benchmark tool).',
          parameters: noArguments,
          policy: 'allow',
          run: () => {
            record('handler: ran and returned');
            return { ok: true };
          },
        },
      },
      runner: {
        receipts: (identityId: string) =>
          recordedStore(page.AgentChatTools!.openIndexedDbReceiptStore({ name: `agent-chat-tools:${identityId}` })),
        onDiagnostic: (_call: unknown, state: string) => record(`runner: ${state}`),
        reconcile: () => {
          const answer = localStorage.getItem('bench:reconcile');
          record(`reconcile asked: answers ${answer === 'completed' ? 'completed' : 'nothing'}`);
          return answer === 'completed' ? { status: 'completed', result: { reconciled: true } } : null;
        },
      },
    };
  });
}

/** Records each claim and receipt the server answers, and holds the first final receipt when asked. */
async function watchNetwork(page: Page, scenario: Scenario, moments: Moment[]): Promise<void> {
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    const at = Date.now();
    if (path.endsWith('/claim')) {
      void response.json().then((body: { replayed?: boolean }) =>
        moments.push({
          at,
          source: 'network',
          what: `claim answered ${response.status()}: grant${body.replayed === true ? ', replayed: true' : ''}`,
        }),
      );
    }
    if (path.endsWith('/receipts')) {
      const sent = response.request().postDataJSON() as { kind: string; receiptId: string };
      void response.text().then((body) =>
        moments.push({
          at,
          source: 'network',
          what: `server acknowledged ${sent.kind} ${sent.receiptId.slice(0, 12)}…: ${response.status()} ${body}`,
        }),
      );
    }
  });
  let heldFinals = 0;
  await page.route('**/tool-calls/*/receipts', async (route) => {
    const sent = route.request().postDataJSON() as { kind: string; receiptId: string };
    if (scenario.holdFirstFinal && sent.kind === 'completed' && heldFinals === 0) {
      heldFinals += 1;
      moments.push({ at: Date.now(), source: 'network', what: `final receipt ${sent.receiptId.slice(0, 12)}… held` });
      // Neither answered nor let through: the reload cancels it.
      return;
    }
    await route.continue();
  });
}

/** The run log's events about the browser call and the run's end, as moments. */
function serverMoments(events: readonly LoggedEvent[]): Moment[] {
  const describe = (event: LoggedEvent): string | null => {
    const data = event.data as Record<string, string | undefined>;
    switch (event.type) {
      case 'TOOL_CALL_START':
        return `call announced (${String(data.toolCallName ?? data.name ?? '')} for the browser)`;
      case 'TOOL_CALL_DISPATCHED':
        return 'call dispatched: waits for an executor';
      case 'TOOL_CALL_CLAIMED':
        return `claim granted to ${String(data.executorId).slice(0, 12)}…`;
      case 'TOOL_CALL_RECEIPT':
        return `receipt applied: ${String(data.kind)} ${String(data.receiptId).slice(0, 12)}…`;
      case 'TOOL_CALL_REPORTED':
        return `executor reported ${String(data.code)}`;
      case 'TOOL_CALL_RESULT':
        return `call ended ${String(data.status)}`;
      case 'RUN_FINISHED':
        return 'run finished';
      default:
        return null;
    }
  };
  return events.flatMap((event) => {
    const what = describe(event);
    return what === null ? [] : [{ at: event.timestamp, source: 'server' as const, what }];
  });
}

/** Runs one scenario in a fresh browser context and returns its moments. */
async function runScenario(browser: Browser, baseURL: string, scenario: Scenario): Promise<Moment[]> {
  const moments: Moment[] = [];
  const context = await browser.newContext({ baseURL });
  await installBenchTools(context, moments);
  const page = await context.newPage();
  await watchNetwork(page, scenario, moments);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto('/');
  await waitForDemo(page);
  await page.waitForFunction(
    () => (window as ToolTestWindow).agentChatDemo?.inline.client.getState().toolRunner != null,
  );
  await page.evaluate((answer) => localStorage.setItem('bench:reconcile', answer), scenario.reconcile);
  const before = moments.length;
  await chat(page).send(`/clienttool ${scenario.tool} {}`);
  // Reload once the page got as far as the scenario needs: progress written, or the final receipt held.
  const isFarEnough = (moment: Moment): boolean =>
    scenario.holdFirstFinal ? moment.what.endsWith('held') : moment.what.startsWith('store: receipt written (running');
  while (!moments.slice(before).some(isFarEnough)) await page.waitForTimeout(20);
  // Let the progress receipt reach the server before the reload.
  if (!scenario.holdFirstFinal) await page.waitForTimeout(300);
  const { run } = await readState(page);
  moments.push({ at: Date.now(), source: 'bench', what: 'page reloaded' });
  await page.reload();
  await waitForDemo(page);
  await page.waitForFunction(
    () =>
      ['completed', 'failed', 'cancelled', 'expired'].includes(
        (window as ToolTestWindow).agentChatDemo?.inline.client.getState().run?.status ?? '',
      ),
    undefined,
    { timeout: 30_000 },
  );
  const log = await readRunLog(page, run?.runId ?? '');
  await context.close();
  return [...moments, ...serverMoments(log)].sort((a, b) => a.at - b.at);
}

/** Prints a timeline in ms from the call's announcement. */
function printTimeline(scenario: Scenario, moments: readonly Moment[]): void {
  const start = moments.find((moment) => moment.what.startsWith('call announced'))?.at ?? moments[0]?.at ?? 0;
  console.log(`\nReload, ${scenario.title} (${scenario.tool}):`);
  for (const moment of moments) {
    if (moment.at < start) continue;
    console.log(`${`+${moment.at - start} ms`.padStart(9)}  ${moment.source.padEnd(7)}  ${moment.what}`);
  }
}

/** The scenario's figures: how often the handler ran, how the call ended, and ms from the reload to that end. */
function summarize(moments: readonly Moment[]): string {
  const runs = moments.filter((moment) => moment.what.startsWith('handler:')).length;
  const reload = moments.find((moment) => moment.what === 'page reloaded');
  const ended = moments.find((moment) => moment.what.startsWith('call ended'));
  const afterReload = reload !== undefined && ended !== undefined ? `${ended.at - reload.at} ms` : 'n/a';
  return `${ended?.what ?? 'call never ended'}, handler ran ${runs}×, reload → end ${afterReload}`;
}

console.log(describeMachine());
const stopServer = await startDemoServer();
const baseURL = process.env[E2E_URL_VARIABLE] ?? '';
const browser = await chromium.launch(chromiumLaunchOptions());
const summaries: string[] = [];
try {
  for (const scenario of SCENARIOS) {
    const moments = await runScenario(browser, baseURL, scenario);
    printTimeline(scenario, moments);
    summaries.push(`${scenario.title}: ${summarize(moments)}`);
  }
} finally {
  await browser.close();
  await stopServer();
}
console.log(`\n${summaries.join('; ')}.`);
