import type { ToolDefinition } from '../tools/tool-registry.ts';
import { showWidget } from '../tools/tool-outcomes.ts';
import { ToolError } from '../tools/tool-registry.ts';
import { readWidget } from './read-widget.ts';
import type { WidgetNode } from '../../core/protocol.ts';

/** The name of the built-in render tool. */
export const RENDER_WIDGET_TOOL_NAME = 'render_widget';

/**
 * The built-in render tool (docs/widgets.md, "The render tool"): offered only when the product
 * adds it to the engine's `tools`, it lets the model compose a widget itself. The widget is
 * checked against the catalogue with `readWidget` (the same checks as a tool's `showWidget`); one
 * that fails fails the call with the problems, so the model can fix it or answer in text.
 * `imageOrigins` must be the engine's `widgets.imageOrigins`.
 */
export function createRenderWidgetTool(options: { imageOrigins?: readonly string[] } = {}): ToolDefinition {
  return {
    name: RENDER_WIDGET_TOOL_NAME,
    title: 'Show a widget',
    description:
      'Shows the user a widget built from the catalogue in docs/widgets.md: nodes {type, ...} of card, row, column, box ' +
      '(children), title, text, caption, markdown, badge (text), divider, icon (name), list (items of list_item), ' +
      'key_value (items {key, value}), table (columns, rows of strings), button (label, action) and form ' +
      '(action, submitLabel, fields of text, textarea, select, checkbox, radio, date). Use it for structured answers.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['root'],
      properties: {
        widgetId: { type: 'string', maxLength: 64 },
        root: { type: 'object', description: 'The root node of the widget.' },
      },
    },
    policy: 'allow',
    run: (args) => {
      const init = {
        ...(typeof args['widgetId'] === 'string' ? { widgetId: args['widgetId'] } : {}),
        root: args['root'] as WidgetNode,
      };
      const read = readWidget(init, { imageOrigins: options.imageOrigins ?? [], mintId: () => 'wgt_render' });
      if ('problems' in read) throw new ToolError(`The widget was not shown: ${read.problems.join('; ')}.`);
      return Promise.resolve(showWidget('The widget is shown to the user.', init));
    },
  };
}
