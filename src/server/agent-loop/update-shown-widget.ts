import { readWidget, type WidgetInit } from '../widgets/read-widget.ts';
import type { RunContext } from './engine-options.ts';

/**
 * Updates a widget the run showed, while the run goes on (a tool's `updateWidget`, docs/widgets.md
 * "Updating a widget"): in one write it finds the latest call of the run whose result shows
 * `init.widgetId`, checks the new tree against the catalogue, and appends `WIDGET_UPDATED` with the
 * widget at its next revision (so its digest changes and an action on the old one is stale).
 * Resolves false, appending nothing, when the run shows no such widget, the run has ended, or the
 * tree fails a check (logged with its problems).
 */
export async function updateShownWidget(
  context: RunContext,
  init: WidgetInit & { widgetId: string },
): Promise<boolean> {
  const { settings, writer, handle } = context;
  let problems: string[] = [];
  const appended = await writer.transact((snapshot) => {
    const call = snapshot.toolCalls.findLast((shown) => shown.result?.widget?.widgetId === init.widgetId);
    const shown = call?.result?.widget;
    if (call === undefined || shown === undefined) return [];
    const read = readWidget(init, {
      imageOrigins: settings.widgetImageOrigins,
      mintId: () => init.widgetId,
      revision: shown.revision + 1,
    });
    if ('problems' in read) {
      problems = read.problems;
      return [];
    }
    return [{ type: 'WIDGET_UPDATED', data: { toolCallId: call.toolCallId, widget: read.widget } }];
  });
  if (problems.length > 0) {
    settings.log({
      level: 'warn',
      message: `the update of widget ${init.widgetId} fails the catalogue; the widget stays as it was`,
      runId: handle.runId,
      detail: problems,
    });
  }
  return appended.length > 0;
}
