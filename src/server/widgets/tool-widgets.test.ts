import { describe, expect, it } from 'vitest';
import type { WidgetNode } from '../../core/protocol.ts';
import { createListModel } from '../agent-loop/test-support/list-model.ts';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import { showWidget } from '../tools/tool-outcomes.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import { digestWidget } from './read-widget.ts';
import { createRenderWidgetTool } from './render-widget-tool.ts';

const CARD: WidgetNode = { type: 'card', children: [{ type: 'title', text: 'Order #1042' }] };

/** A model that calls `name` with `args` once, then answers. */
function modelCalling(name: string, args: unknown) {
  return createListModel([
    [
      { type: 'tool_call', id: 'call_1', name, arguments: JSON.stringify(args) },
      { type: 'finish', reason: 'tool_calls' },
    ],
    [
      { type: 'text', delta: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ],
  ]);
}

function toolAnswering(root: unknown): ToolDefinition {
  return {
    name: 'order.show',
    description: 'Shows an order.',
    parameters: { type: 'object' },
    policy: 'allow',
    run: () =>
      Promise.resolve(
        showWidget({ orderId: '1042', status: 'shipped' }, { widgetId: 'order-1042', root: root as WidgetNode }),
      ),
  };
}

describe('widgets from tools', () => {
  it('logs the widget on the call’s result and gives the model only the text result', async () => {
    const model = modelCalling('order.show', {});
    const run = startEngine('show my order', { model, tools: [toolAnswering(CARD)] });
    await run.done;
    const [result] = dataOf(run.events(), 'TOOL_CALL_RESULT');
    expect(result).toMatchObject({
      status: 'completed',
      content: '{"orderId":"1042","status":"shipped"}',
      widget: { widgetId: 'order-1042', root: CARD, digest: digestWidget('order-1042', CARD) },
    });
    const snapshot = await run.until((s) => s.status === 'completed');
    expect(snapshot.toolCalls[0]?.result?.widget?.widgetId).toBe('order-1042');
    const toolMessage = model.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(toolMessage).toMatchObject({ content: '{"orderId":"1042","status":"shipped"}' });
    expect(JSON.stringify(model.requests[1]?.messages)).not.toContain('Order #1042');
  });

  it('leaves out a widget the catalogue refuses, logs why, and still completes the call', async () => {
    const run = startEngine('show my order', {
      model: modelCalling('order.show', {}),
      tools: [toolAnswering({ type: 'script', text: 'alert(1)' })],
    });
    await run.done;
    const [result] = dataOf(run.events(), 'TOOL_CALL_RESULT');
    expect(result?.status).toBe('completed');
    expect(result).not.toHaveProperty('widget');
    expect(run.logs.map((entry) => entry.message)).toContain(
      'tool order.show answered with a widget the catalogue refuses; it is left out',
    );
  });

  it('lets the model compose a widget with the render tool, checked the same way', async () => {
    const run = startEngine('render', {
      model: modelCalling('render_widget', { root: CARD }),
      tools: [createRenderWidgetTool()],
    });
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT')[0]?.widget?.root).toEqual(CARD);

    const refused = startEngine('render', {
      model: modelCalling('render_widget', { root: { type: 'image', src: 'https://evil.example/x.png', alt: '' } }),
      tools: [createRenderWidgetTool()],
    });
    await refused.done;
    const [failed] = dataOf(refused.events(), 'TOOL_CALL_RESULT');
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.content).toContain(
      'The widget was not shown: an image must come over https from an origin the server allows',
    );
    expect(failed).not.toHaveProperty('widget');
  });

  it('updates a shown widget in place by its id while the run goes on, and refuses what it cannot update', async () => {
    const delivered: WidgetNode = { type: 'card', children: [{ type: 'title', text: 'Order #1042 delivered' }] };
    const answers: boolean[] = [];
    const updater: ToolDefinition = {
      name: 'order.update',
      description: 'Updates the order card.',
      parameters: { type: 'object' },
      policy: 'allow',
      run: async (_args, { updateWidget }) => {
        answers.push(await updateWidget({ widgetId: 'order-1042', root: delivered }));
        answers.push(await updateWidget({ widgetId: 'order-9999', root: delivered }));
        answers.push(await updateWidget({ widgetId: 'order-1042', root: { type: 'script' } as unknown as WidgetNode }));
        return 'updated';
      },
    };
    const model = createListModel([
      [
        { type: 'tool_call', id: 'call_1', name: 'order.show', arguments: '{}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [
        { type: 'tool_call', id: 'call_2', name: 'order.update', arguments: '{}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [
        { type: 'text', delta: 'Done.' },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    const run = startEngine('show then update', { model, tools: [toolAnswering(CARD), updater] });
    await run.done;
    expect(answers).toEqual([true, false, false]);
    const [shown] = dataOf(run.events(), 'TOOL_CALL_RESULT');
    const updates = dataOf(run.events(), 'WIDGET_UPDATED');
    expect(updates).toEqual([
      {
        toolCallId: shown?.toolCallId,
        widget: {
          widgetId: 'order-1042',
          root: delivered,
          revision: 1,
          digest: digestWidget('order-1042', delivered, 1),
        },
      },
    ]);
    const snapshot = await run.until((s) => s.status === 'completed');
    expect(snapshot.toolCalls[0]?.result).toMatchObject({ content: shown?.content, widget: updates[0]?.widget });
    expect(run.logs.map((entry) => entry.message)).toContain(
      'the update of widget order-1042 fails the catalogue; the widget stays as it was',
    );
  });
});
