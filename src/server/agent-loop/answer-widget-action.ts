import { sha256Digest } from '../json/canonical-json.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import { digestWidget, readWidget } from '../widgets/read-widget.ts';
import { markSubmitted, type WidgetActionOutcome } from '../widgets/widget-action.ts';
import type { RunContext } from './engine-options.ts';

/** The tool name an action run's record of the action goes by (docs/widgets.md, "Actions"). */
export const WIDGET_ACTION_TOOL_NAME = 'widget_action';

/**
 * The first step of an action run (its input carries `widgetAction`): asks the product's
 * `onWidgetAction`, then logs the action as a completed call of {@link WIDGET_ACTION_TOOL_NAME}
 * whose result carries the widget as it is now (the hook's tree under the same id, else a
 * submitted form marked submitted), under the action's user message, then the hook's message as
 * an assistant message. A hook that
 * throws, or a tree the catalogue refuses, leaves the widget as the default update and is logged.
 * Returns whether the model answers next (`startRun`); otherwise the caller finishes the run.
 */
export async function answerWidgetAction(context: RunContext): Promise<boolean> {
  const { settings, handle, writer } = context;
  const action = handle.input.widgetAction;
  if (action === undefined) return true;
  let outcome: WidgetActionOutcome = {};
  try {
    outcome =
      (await settings.onWidgetAction?.(action, handle.subject, {
        runId: handle.runId,
        sessionId: handle.sessionId,
        locale: handle.locale,
        signal: handle.signal,
      })) ?? {};
  } catch (error) {
    settings.log({
      level: 'error',
      message: 'onWidgetAction threw; the widget keeps its default update',
      runId: handle.runId,
      detail: error,
    });
  }
  const readOptions = {
    imageOrigins: settings.widgetImageOrigins,
    mintId: () => action.widgetId,
    revision: action.widget.revision + 1,
  };
  const fallback = markSubmitted(action.widget.root, action.action, action.values);
  let read = readWidget({ widgetId: action.widgetId, root: outcome.widget ?? fallback }, readOptions);
  if ('problems' in read) {
    settings.log({
      level: 'warn',
      message: 'onWidgetAction answered with a widget the catalogue refuses; the default update is shown',
      runId: handle.runId,
      detail: read.problems,
    });
    read = readWidget({ widgetId: action.widgetId, root: fallback }, readOptions);
  }
  // The default update only marks a checked widget submitted, so it passes; the shown tree stays otherwise.
  const widget =
    'widget' in read
      ? read.widget
      : {
          ...action.widget,
          revision: readOptions.revision,
          digest: digestWidget(action.widgetId, action.widget.root, readOptions.revision),
        };
  const toolCallId = settings.ids('tc');
  const args = { widgetId: action.widgetId, action: action.action, values: action.values };
  const events = (parentMessageId: string | undefined): PendingEvent[] => [
    {
      type: 'TOOL_CALL_START',
      data: {
        toolCallId,
        toolCallName: WIDGET_ACTION_TOOL_NAME,
        title: action.label,
        ...(parentMessageId === undefined ? {} : { parentMessageId }),
      },
    },
    { type: 'TOOL_CALL_END', data: { toolCallId, args, argsDigest: sha256Digest(args) } },
    {
      type: 'TOOL_CALL_RESULT',
      data: {
        toolCallId,
        messageId: settings.ids('msg'),
        content: JSON.stringify({ action: action.action, values: action.values }),
        status: 'completed',
        widget,
      },
    },
  ];
  const message = outcome.message?.trim();
  const messageId = settings.ids('msg');
  const answer: PendingEvent[] = message
    ? [
        { type: 'TEXT_MESSAGE_START', data: { messageId, role: 'assistant' } },
        { type: 'TEXT_MESSAGE_CONTENT', data: { messageId, delta: message } },
        { type: 'TEXT_MESSAGE_END', data: { messageId, finishReason: 'stop' } },
      ]
    : [];
  // The call hangs under the action's own user message, so history shows it where it happened.
  await writer.transact((snapshot) => [
    ...events(snapshot.messages.findLast((shown) => shown.role === 'user')?.messageId),
    ...answer,
  ]);
  return outcome.startRun === true;
}
