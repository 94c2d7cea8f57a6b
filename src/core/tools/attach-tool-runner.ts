import type { AgentClientHandle } from '../client/agent-client-types.ts';
import type { ClientExtension, ClientState, ToolRunnerPhase, ToolRunnerView } from '../client/client-state.ts';
import { createRandomUuid } from '../client/create-idempotency-key.ts';
import { createSystemClock } from '../clock.ts';
import { foldExecutorEvents } from '../state/fold-executor-events.ts';
import type { BootstrapResponse, BrowserToolDeclaration, PendingToolCallsResponse } from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { isAgentError } from '../transport/agent-error.ts';
import { checkHandlers } from './check-handlers.ts';
import { driveBrowserCall } from './drive-browser-call.ts';
import { createMemoryReceiptStore } from './receipt-store.ts';
import type { RunnerContext } from './runner-context.ts';
import { EN_TOOL_RUNNER_STRINGS } from './tool-runner-strings.ts';
import type { BrowserToolCall, ToolRunner, ToolRunnerOptions } from './tool-runner-types.ts';
import type { ToolRunnerViewAction } from './tool-runner-view.ts';
import { reduceToolRunnerView } from './tool-runner-view.ts';

const EXECUTOR_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** What a client keeps of a revoked runner: executor events are still folded into the snapshots. */
export const FOLD_ONLY: ClientExtension = { foldRunEvent: foldExecutorEvents, browserTools: [], toolRunner: null };
/** Phases after which the runner leaves a call alone (an `elsewhere` call may be released and come back). */
const FINISHED_PHASES: readonly ToolRunnerPhase[] = ['done', 'refused', 'needs_reconciliation'];

/**
 * Attaches a browser tool runner to `client` for the identity it has (or gets) from bootstrap
 * (docs/client.md, "Browser tools"). When the server supports browser tools it declares the
 * handlers' tools for every later send, connects its executor and heartbeats, and takes each
 * dispatched call of a tool it has — from the followed run, from `pending` and from its own
 * stored receipts — through `driveBrowserCall`. It aborts a running handler when its run stops,
 * and revokes itself when the client's identity changes. Nothing starts unless this is called.
 */
export function attachToolRunner(client: AgentClientHandle, options: ToolRunnerOptions): ToolRunner {
  checkHandlers(options.handlers);
  const strings = options.strings ?? EN_TOOL_RUNNER_STRINGS;
  // The client folds executor events only once a runner plugs them in (the widget alone does not carry them).
  // Declared at once, so a message sent before the executor connects can already use the tools
  // (a server without browser tools ignores the declarations).
  let extension: ClientExtension = {
    foldRunEvent: foldExecutorEvents,
    browserTools: declarationsOf(options),
    toolRunner: null,
  };
  client.extend(extension);
  const store = options.receipts ?? createMemoryReceiptStore();
  const clock = options.clock ?? createSystemClock();
  const ids = options.ids ?? createRandomUuid;
  let view: ToolRunnerView | null = null;
  let isRevoked = false;
  let identity: string | null = null;
  let context: RunnerContext | null = null;
  let heartbeat: unknown = undefined;
  let markReady: () => void = () => undefined;
  let failReady: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // A caller that never awaits `ready` must not see an unhandled rejection.
  ready.catch(() => undefined);
  const inFlight = new Map<string, Promise<void>>();
  const runOfCall = new Map<string, string>();
  const running = new Map<string, AbortController>();

  const dispatchView = (action: ToolRunnerViewAction): void => {
    // Every change of a phase (or of the transcript) may move a card's place line.
    const toolCalls = client.getState().toolCalls;
    const seen: ToolRunnerViewAction = { type: 'toolCallsSeen', toolCalls, strings };
    const next = reduceToolRunnerView(reduceToolRunnerView(view, action), seen);
    if (next === view || isRevoked) return;
    view = next;
    extension = { ...extension, toolRunner: view };
    client.extend(extension);
  };

  const post = (path: string, body: unknown) =>
    client.request({ method: 'POST', path, body: JSON.stringify(body), attempts: 3 });

  /** Takes a call through `driveBrowserCall` unless it is in flight or finished; a failure is retried next round. */
  const take = (call: BrowserToolCall): void => {
    const tool = options.handlers[call.name];
    const phase = view?.calls[call.toolCallId];
    if (context === null || isRevoked || tool === undefined || inFlight.has(call.toolCallId)) return;
    if (phase !== undefined && FINISHED_PHASES.includes(phase)) return;
    runOfCall.set(call.toolCallId, call.runId);
    const driven = driveBrowserCall(context, call, tool)
      .catch(() => undefined)
      .finally(() => inFlight.delete(call.toolCallId));
    inFlight.set(call.toolCallId, driven);
  };

  /** The followed run's open browser calls this executor may claim or must finish. */
  const takeFromState = (state: ClientState): void => {
    const run = state.run;
    if (run === null || context === null) return;
    const isStopping = run.status === 'cancelling' || isTerminalRunStatus(run.status);
    for (const [toolCallId, controller] of running) {
      if (isStopping && runOfCall.get(toolCallId) === run.runId) controller.abort('cancelled');
    }
    if (isStopping) return;
    for (const call of state.toolCalls) {
      const holder = call.executor?.executorId;
      const isOurs = holder === undefined || holder === context.executorId;
      const isOpen = call.status === 'awaiting_executor' || (call.status === 'running' && holder !== undefined);
      if (call.executor === undefined || call.result !== undefined || !isOpen) continue;
      if (!isOurs) {
        // Another browser or a tab with its own store holds it: this card says so.
        if (options.handlers[call.name] !== undefined) context.setPhase(call.toolCallId, 'elsewhere');
        continue;
      }
      take({
        runId: run.runId,
        toolCallId: call.toolCallId,
        name: call.name,
        args: call.args,
        argsDigest: call.argsDigest ?? '',
      });
    }
  };

  /** One round: renew the lease (connecting again if the server forgot it), then pending calls and stored receipts. */
  const runRound = async (): Promise<void> => {
    const runner = context;
    if (runner === null || isRevoked) return;
    await post(`/executors/${encodeURIComponent(runner.executorId)}/heartbeat`, {}).catch((error: unknown) =>
      isAgentError(error) && error.code === 'EXECUTOR_NOT_CONNECTED' ? runner.connect() : undefined,
    );
    const pending = await client
      .request<PendingToolCallsResponse>({
        method: 'GET',
        path: `/executors/${encodeURIComponent(runner.executorId)}/pending`,
        attempts: 2,
      })
      .catch(() => null);
    for (const item of pending?.body?.items ?? []) take(item);
    for (const receipt of await store.list().catch(() => [])) take(receipt);
    takeFromState(client.getState());
  };

  const start = async (boot: BootstrapResponse): Promise<void> => {
    if (boot.capabilities.browserTools?.supported !== true) return;
    const executorId = options.executorId ?? (await store.executorId(() => `exe_${ids()}`));
    if (!EXECUTOR_ID_PATTERN.test(executorId)) throw new TypeError(`"${executorId}" is not an executor id`);
    if (isRevoked) return;
    const tools = Object.keys(options.handlers);
    const connect = async (): Promise<void> => {
      await post(`/executors/${encodeURIComponent(executorId)}/connect`, { tools });
    };
    context = {
      client,
      options,
      store,
      clock,
      ids,
      executorId,
      isRevoked: () => isRevoked,
      setPhase: (toolCallId, phase) => dispatchView({ type: 'phaseChanged', toolCallId, phase }),
      diagnose(call, state) {
        try {
          options.onDiagnostic?.(call, state);
        } catch {
          // A broken observer must not stop the runner.
        }
      },
      running,
      connect,
    };
    dispatchView({ type: 'started', executorId });
    await connect().catch(() => undefined);
    const everyMs = (boot.limits.executorHeartbeatSec ?? 15) * 1000;
    const tick = (): void => {
      heartbeat = clock.setTimeout(() => {
        void runRound().finally(() => {
          if (!isRevoked) tick();
        });
      }, everyMs);
    };
    tick();
    await runRound();
  };

  const onState = (state: ClientState): void => {
    const current = state.bootstrap?.identity.identityId ?? null;
    if (identity !== null && current !== identity) {
      void revoke();
      return;
    }
    if (identity === null && state.bootstrap !== null) {
      identity = current;
      void start(state.bootstrap).then(markReady, failReady);
      return;
    }
    dispatchView({ type: 'toolCallsSeen', toolCalls: state.toolCalls, strings });
    takeFromState(state);
  };

  const unsubscribe = client.subscribe(onState);

  let revoking: Promise<void> | null = null;
  /** Revokes once; every call gets the same promise, settled once the client no longer shows this runner. */
  function revoke(): Promise<void> {
    revoking ??= (async () => {
      isRevoked = true;
      unsubscribe();
      clock.clearTimeout(heartbeat);
      for (const controller of running.values()) controller.abort('revoked');
      // Out of the client's listener call that may have brought us here.
      await Promise.resolve();
      // The fold stays: a call's later executor events still reach its card.
      client.extend(FOLD_ONLY);
      markReady();
      const executorId = context?.executorId;
      if (executorId !== undefined && client.getState().bootstrap?.identity.identityId === identity) {
        await post(`/executors/${encodeURIComponent(executorId)}/disconnect`, {}).catch(() => undefined);
      }
      void Promise.allSettled([...inFlight.values()]).then(() => store.close?.());
    })();
    return revoking;
  }

  onState(client.getState());
  return {
    ready,
    executorId: () => context?.executorId ?? null,
    revoke,
    isRevoked: () => isRevoked,
  };
}

function declarationsOf(options: ToolRunnerOptions): BrowserToolDeclaration[] {
  return Object.entries(options.handlers).map(([name, tool]) => ({
    name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.policy === undefined ? {} : { policy: tool.policy }),
  }));
}
