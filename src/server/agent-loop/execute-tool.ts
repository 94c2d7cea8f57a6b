import type { ToolResultStatus, WidgetNode } from '../../core/protocol.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import { ToolError, ToolOutcomeUnknownError, ToolStoppedError } from '../tools/tool-registry.ts';
import type { RunContext } from './engine-options.ts';
import { updateShownWidget } from './update-shown-widget.ts';

/**
 * What running a tool produced. `stopped` means the signal aborted before it finished; `unknown`
 * that the tool itself could not tell whether its work happened (`ToolOutcomeUnknownError`).
 */
export type ExecutionResult =
  | { kind: 'value'; value: unknown }
  | { kind: 'failed'; message: string }
  | { kind: 'unknown'; message: string }
  | { kind: 'stopped'; status: Extract<ToolResultStatus, 'cancelled' | 'unknown'>; message: string };

/**
 * Runs one tool with a signal and coalesced progress (≤ 1 `TOOL_CALL_PROGRESS` per
 * `progressIntervalMs`; a held-back update is sent before the result). When `signal` aborts,
 * the tool gets `toolStopGraceMs` to confirm with `ToolStoppedError` (→ `cancelled`); anything
 * else is `unknown`, because the work may have happened.
 */
export async function executeTool(
  context: RunContext,
  options: { tool: ToolDefinition; args: Record<string, unknown>; toolCallId: string; signal: AbortSignal },
): Promise<ExecutionResult> {
  const { settings, writer } = context;
  const { clock } = settings;
  const { tool, args, toolCallId, signal } = options;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let held: { message?: string; fraction?: number } | null = null;
  let timer: unknown = undefined;
  let isDone = false;
  const send = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    if (held === null) return;
    writer.post('TOOL_CALL_PROGRESS', { toolCallId, ...held });
    held = null;
    lastSentAt = clock.now();
  };
  const progress = (message?: string, fraction?: number): void => {
    if (isDone) return;
    held = {
      ...(message === undefined ? {} : { message }),
      ...(fraction === undefined || !Number.isFinite(fraction) ? {} : { fraction: Math.min(1, Math.max(0, fraction)) }),
    };
    const waited = clock.now() - lastSentAt;
    if (waited >= settings.limits.progressIntervalMs) send();
    else timer ??= clock.setTimeout(send, settings.limits.progressIntervalMs - waited);
  };

  const updateWidget = (widget: { widgetId: string; root: WidgetNode }) => updateShownWidget(context, widget);
  const running = Promise.resolve().then(() =>
    tool.run(args, { signal, progress, subject: context.handle.subject, updateWidget }),
  );
  const settled = running.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  const first = await Promise.race([settled, aborted]);
  try {
    if (first === 'aborted') return await awaitStop(context, settled);
    if (first.ok) return { kind: 'value', value: first.value };
    if (first.error instanceof ToolOutcomeUnknownError) return { kind: 'unknown', message: first.error.message };
    return { kind: 'failed', message: describeFailure(context, tool.name, first.error) };
  } finally {
    isDone = true;
    send();
  }
}

async function awaitStop(
  context: RunContext,
  settled: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>,
): Promise<ExecutionResult> {
  const { clock, limits } = context.settings;
  let timer: unknown = undefined;
  const grace = new Promise<'timeout'>((resolve) => {
    timer = clock.setTimeout(() => resolve('timeout'), limits.toolStopGraceMs);
  });
  const outcome = await Promise.race([settled, grace]);
  clock.clearTimeout(timer);
  if (outcome !== 'timeout' && !outcome.ok && outcome.error instanceof ToolStoppedError) {
    return { kind: 'stopped', status: 'cancelled', message: outcome.error.message };
  }
  return {
    kind: 'stopped',
    status: 'unknown',
    message: 'The run stopped while the tool was running; its outcome is unknown.',
  };
}

function describeFailure(context: RunContext, toolName: string, error: unknown): string {
  if (error instanceof ToolError || error instanceof ToolStoppedError) return error.message;
  const correlationId = context.settings.ids('corr');
  context.settings.log({
    level: 'error',
    message: `tool ${toolName} threw`,
    runId: context.handle.runId,
    correlationId,
    detail: error,
  });
  return `The tool failed unexpectedly (reference ${correlationId}).`;
}
