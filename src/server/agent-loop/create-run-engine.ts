import type { EventDataMap, RunSnapshot } from '../../core/protocol.ts';
import { closeOpenItems, pendingInputIds } from '../runs/close-open-items.ts';
import type { PendingEvent, RunEngine, RunHandle } from '../runs/run-handle.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { modelInfoOf } from '../models/model-info.ts';
import { createBrowserToolSet } from '../tools/browser-tool-set.ts';
import { callModel } from './call-model.ts';
import { buildContextLayers } from './context-layers.ts';
import { readInputMessages } from './conversation.ts';
import { createDeadline } from './create-deadline.ts';
import type { EngineSettings, RunContext, RunEngineOptions } from './engine-options.ts';
import { createEngineSettings, settingsForVersion } from './engine-settings.ts';
import { linkAbort, LoopStop, stopWithError } from './loop-stop.ts';
import { calibrationKey, costSoFar, prepareModelRequest, recordPromptTokens } from './model-request.ts';
import { createRunWriter } from './run-writer.ts';
import type { LoopStart } from './loop-start.ts';
import { startFresh, startFromLog } from './loop-start.ts';
import { answerWidgetAction, WIDGET_ACTION_TOOL_NAME } from './answer-widget-action.ts';
import { resumeToolCalls } from './resume-tool-calls.ts';
import { fillText, formatDuration, resolveEngineTexts } from './engine-texts.ts';
import { runToolCalls } from './run-tool-calls.ts';

/**
 * Creates the agent loop behind the reference server. `start(handle)` runs rounds of model turn
 * → tool calls (governed, maybe approved) → results until the model answers without tool calls,
 * and always ends the run with exactly one terminal event, written through the handle: success,
 * cancelled (after closing everything open) or `RUN_ERROR` with the safeguard's code. Each request
 * is built from the prompt layers and the session's history within the token budget
 * (docs/agent-loop.md, "Context budget"); the run's agent version picks its prompt, tools and model.
 * `close()` closes the connections to the MCP servers of `mcpServers`. `models` lists its model
 * (`modelInfoOf`), which bootstrap publishes when the handler is given no `models`.
 */
export function createRunEngine(options: RunEngineOptions = {}): RunEngine & { close(): Promise<void> } {
  const settings = createEngineSettings(options);
  return {
    models: [modelInfoOf(settings.model)],
    start: (handle) => runToTerminal(settings, handle, startFresh),
    resume: (handle) => runToTerminal(settings, handle, startFromLog),
    close: async () => {
      await settings.mcp?.close();
    },
  };
}

async function runToTerminal(
  engineSettings: EngineSettings,
  handle: RunHandle,
  prepare: (context: RunContext, notices: readonly PendingEvent[]) => Promise<LoopStart>,
): Promise<void> {
  const versioned = settingsForVersion(engineSettings, handle.snapshot().agent?.versionId);
  // A run keeps the MCP tools listed when it starts, whatever the servers list later.
  const settings =
    versioned.mcp === null
      ? versioned
      : { ...versioned, registry: await versioned.mcp.registryFor(versioned.registry) };
  handle.observer?.toolsRegistered([...settings.registry.list().map((tool) => tool.name), WIDGET_ACTION_TOOL_NAME]);
  const stopController = new AbortController();
  const onCancel = (): void => stopController.abort(new LoopStop({ kind: 'cancel' }));
  if (handle.signal.aborted) onCancel();
  else handle.signal.addEventListener('abort', onCancel, { once: true });
  const elapsedMs = Math.max(0, settings.clock.now() - (handle.snapshot().createdAt ?? settings.clock.now()));
  const texts = resolveEngineTexts(handle.locale, settings.texts);
  const runTimer = settings.clock.setTimeout(() => {
    stopController.abort(
      stopWithError(
        'RUN_TIMEOUT',
        fillText(texts.runTimeout, { limit: formatDuration(settings.limits.runMaxDurationMs, texts) }),
        true,
      ),
    );
  }, settings.limits.runMaxDurationMs - elapsedMs);
  const browser = createBrowserToolSet(handle.browserTools ?? [], {
    schemas: settings.browserSchemas,
    isServerTool: (name) => settings.registry.get(name) !== undefined,
  });
  const context: RunContext = {
    settings,
    handle,
    texts,
    writer: createRunWriter(handle),
    browserTools: browser.tools,
    stopSignal: stopController.signal,
    usage: null,
    layers: buildContextLayers(settings, handle),
    tokensPerChar: settings.calibration.tokensPerChar(calibrationKey({ settings, handle })),
    evidence: new Map(),
    isCutNoticed: false,
  };
  const ignored: PendingEvent[] = browser.ignored.map(({ name, reason }) => ({
    type: 'NOTICE',
    data: {
      level: 'warning',
      code: 'BROWSER_TOOL_IGNORED',
      message: `The browser tool "${name}" is not offered: ${reason}.`,
    },
  }));
  try {
    const start = await prepare(context, ignored);
    // An action run: the product's hook answers first, and the model only when it says so.
    if (prepare === startFresh && !(await answerWidgetAction(context))) {
      await context.writer.append('RUN_FINISHED', { outcome: { type: 'success' } });
      return;
    }
    await runRounds(context, start);
  } catch (error) {
    await finish(context, error);
  } finally {
    settings.clock.clearTimeout(runTimer);
    handle.signal.removeEventListener('abort', onCancel);
  }
}

async function runRounds(context: RunContext, start: LoopStart): Promise<void> {
  const { settings, handle, writer, stopSignal, texts } = context;
  const { limits } = settings;
  const isCancelling = (s: RunSnapshot): boolean => s.status === 'cancelling' || handle.signal.aborted;
  const { messages } = start;

  for (let round = start.round; ; round += 1) {
    stopSignal.throwIfAborted();
    if (round > limits.maxRounds) {
      throw stopWithError('MAX_ITERATIONS', fillText(texts.maxRounds, { limit: limits.maxRounds }), false);
    }
    const stepName = `round:${round}`;
    const resumedTurn = round === start.round ? start.turn : undefined;
    if (resumedTurn === undefined) {
      let consumed: string[] = [];
      await writer.transact((s) => {
        consumed = pendingInputIds(s);
        return [
          {
            type: 'STEP_STARTED',
            data: { stepName, ...(consumed.length === 0 ? {} : { consumedInputIds: consumed }) },
          },
        ];
      });
      messages.push(...readInputMessages(handle.snapshot(), consumed));
    }

    const link = linkAbort(stopSignal);
    const deadline = createDeadline({
      clock: settings.clock,
      ms: limits.roundTimeoutMs,
      onExpire: () =>
        link.controller.abort(
          stopWithError(
            'MODEL_TIMEOUT',
            fillText(texts.roundTimeout, { limit: formatDuration(limits.roundTimeoutMs, texts) }),
            true,
          ),
        ),
    });
    const roundSignal = link.controller.signal;
    try {
      let hasToolCalls: boolean;
      if (resumedTurn === undefined) {
        const prepared = await prepareModelRequest(context, messages);
        const turn = await callModel(context, prepared.request, roundSignal);
        recordPromptTokens(context, prepared, turn.usage);
        hasToolCalls = turn.toolCalls.length > 0;
        if (hasToolCalls) messages.push(...(await runToolCalls(context, { turn, round, roundSignal, deadline })));
        else messages.push({ role: 'assistant', content: turn.text });
      } else {
        hasToolCalls = true;
        messages.push(...(await resumeToolCalls(context, { turn: resumedTurn, round, roundSignal, deadline })));
      }
      roundSignal.throwIfAborted();
      await writer.append('STEP_FINISHED', { stepName });
      if (hasToolCalls) continue;
    } finally {
      deadline.clear();
      link.dispose();
    }

    const finished = await writer.transact((s) =>
      isCancelling(s) || pendingInputIds(s).length > 0
        ? []
        : [{ type: 'RUN_FINISHED', data: { outcome: { type: 'success' }, ...usageOf(context) } }],
    );
    if (finished.length > 0) return;
    if (isCancelling(handle.snapshot())) throw new LoopStop({ kind: 'cancel' });
  }
}

/** Ends the run after a stop or failure: closes what is open, then one terminal event. */
async function finish(context: RunContext, error: unknown): Promise<void> {
  const { settings, handle, writer } = context;
  if (error instanceof RunClosedError) return;
  let cause = error;
  if (!(cause instanceof LoopStop)) {
    const correlationId = settings.ids('corr');
    settings.log({
      level: 'error',
      message: 'agent loop failed unexpectedly',
      runId: handle.runId,
      correlationId,
      detail: error,
    });
    cause = stopWithError('INTERNAL', fillText(context.texts.internal, { reference: correlationId }), true);
  }
  const stop = (cause as LoopStop).stop;
  const correlationId = settings.ids('corr');
  if (stop.kind === 'error') {
    settings.log({ level: 'warn', message: `run ends with ${stop.code}`, runId: handle.runId, correlationId });
  }
  try {
    await writer.drain();
  } catch (drainError) {
    if (drainError instanceof RunClosedError) return;
  }
  try {
    await writer.transact((s) => {
      const isCancel = stop.kind === 'cancel' || s.status === 'cancelling' || handle.signal.aborted;
      const closing = closeOpenItems(s, {
        reason: isCancel ? 'cancelled' : 'error',
        newMessageId: () => settings.ids('msg'),
      });
      const unconsumed = pendingInputIds(s);
      const extra = { ...usageOf(context), ...(unconsumed.length === 0 ? {} : { unconsumedInputIds: unconsumed }) };
      let terminal: PendingEvent;
      if (isCancel) {
        terminal = {
          type: 'RUN_FINISHED',
          data: { outcome: { type: 'cancelled', ...cancelReason(handle) }, ...extra },
        };
      } else if (stop.kind === 'ended') {
        const outcome = { type: 'stopped' as const, reason: stop.reason, toolCallId: stop.toolCallId };
        terminal = { type: 'RUN_FINISHED', data: { outcome, ...extra } };
      } else {
        const { code, message, retryable } = stop;
        terminal = { type: 'RUN_ERROR', data: { code, message, retryable, correlationId, ...extra } };
      }
      return [...closing, terminal];
    });
  } catch (finishError) {
    if (!(finishError instanceof RunClosedError)) {
      settings.log({
        level: 'error',
        message: 'could not write the terminal event',
        runId: handle.runId,
        correlationId,
        detail: finishError,
      });
    }
  }
}

function usageOf(context: RunContext): Pick<EventDataMap['RUN_FINISHED'], 'usage' | 'costUsd'> {
  const costUsd = costSoFar(context);
  return {
    ...(context.usage === null ? {} : { usage: [context.usage] }),
    ...(costUsd === undefined ? {} : { costUsd }),
  };
}

function cancelReason(handle: RunHandle): { reason?: string } {
  const reason: unknown = handle.signal.reason;
  return typeof reason === 'string' && reason !== '' ? { reason } : {};
}
