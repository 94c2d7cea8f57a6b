import type { WidgetNode } from '../../core/protocol.ts';
import type { OnWidgetAction } from '../widgets/widget-action.ts';
import { showWidget } from './tool-outcomes.ts';
import type { ToolDefinition } from './tool-registry.ts';

/** The arguments of both demo widget tools: an order id. */
const ORDER_PARAMETERS = {
  type: 'object',
  properties: { orderId: { type: 'string', pattern: '^A-[0-9]+$', maxLength: 40 } },
  required: ['orderId'],
  additionalProperties: false,
};

/** The demo order's delivery address before anyone changes it. */
const FIRST_ADDRESS = '12 Harbour Street, Leith, Edinburgh EH6 6QR';

/**
 * The demo order card (`/widget` in the scripted model, docs/widgets.md): a title with a status
 * badge, the order's items as a table, its details as key–value pairs, a Track button and a
 * change-address form. With `address` set, the card shows that address and a submitted form;
 * `status` is the badge's text (default "Shipped").
 */
export function demoOrderCard(orderId: string, shown: { address?: string; status?: string } = {}): WidgetNode {
  const { address, status = 'Shipped' } = shown;
  const submitted = address !== undefined;
  return {
    type: 'card',
    children: [
      {
        type: 'row',
        gap: 'small',
        align: 'center',
        children: [
          { type: 'icon', name: 'package' },
          { type: 'title', text: `Order ${orderId}` },
          { type: 'badge', text: status, tone: 'success' },
        ],
      },
      {
        type: 'table',
        caption: 'Items',
        columns: ['Item', 'Qty', 'Price'],
        rows: [
          ['Ergonomic keyboard', '1', '€89.00'],
          ['USB-C cable', '2', '€18.00'],
        ],
      },
      {
        type: 'key_value',
        items: [
          { key: 'Delivery', value: 'Thursday' },
          { key: 'Address', value: address ?? FIRST_ADDRESS },
        ],
      },
      { type: 'button', label: 'Track', action: 'track', style: 'primary' },
      { type: 'divider' },
      {
        type: 'form',
        action: 'change_address',
        submitLabel: 'Change address',
        ...(submitted ? { submitted: true } : {}),
        fields: [
          {
            type: 'textarea',
            name: 'address',
            label: 'New address',
            required: true,
            ...(submitted ? { value: address } : {}),
          },
          {
            type: 'select',
            name: 'window',
            label: 'Delivery window',
            options: [
              { value: 'any', label: 'Any time' },
              { value: 'morning', label: 'Morning' },
              { value: 'evening', label: 'Evening' },
            ],
            value: 'any',
          },
        ],
      },
    ],
  };
}

/**
 * The demo's widget tools: `orders.card` answers with {@link demoOrderCard} beside the order as
 * text; `orders.track` tells where the parcel is and updates the card this run showed in place
 * (its badge says "Out for delivery").
 */
export function createDemoWidgetTools(): ToolDefinition[] {
  return [
    {
      name: 'orders.card',
      title: 'Show an order',
      description: 'Shows the user an order as a card with its items, a Track button and a change-address form.',
      parameters: ORDER_PARAMETERS,
      policy: 'allow',
      run: (args) => {
        const orderId = String(args['orderId']);
        return Promise.resolve(
          showWidget(
            { orderId, status: 'shipped', items: 2, address: FIRST_ADDRESS },
            { widgetId: `order-${orderId}`, root: demoOrderCard(orderId) },
          ),
        );
      },
    },
    {
      name: 'orders.track',
      title: 'Track an order',
      description: 'Tells where an order is now, and updates its card if one is shown.',
      parameters: ORDER_PARAMETERS,
      policy: 'allow',
      run: async (args, { updateWidget }) => {
        const orderId = String(args['orderId']);
        await updateWidget({
          widgetId: `order-${orderId}`,
          root: demoOrderCard(orderId, { status: 'Out for delivery' }),
        });
        return { orderId, status: 'out_for_delivery', where: 'left the Leith depot this morning' };
      },
    },
  ];
}

/**
 * The demo's `onWidgetAction`: Track answers where the parcel is; a change of address updates the
 * card (its address, and the form shown as submitted) and confirms it.
 */
export const demoWidgetAction: OnWidgetAction = (action) => {
  const orderId = action.widgetId.replace(/^order-/, '');
  if (action.action === 'track') return { message: `Order ${orderId} left the Leith depot this morning.` };
  if (action.action === 'change_address') {
    const address = String(action.values['address'] ?? '').trim();
    return {
      widget: demoOrderCard(orderId, { address }),
      message: `The address of order ${orderId} is now ${address}.`,
    };
  }
  return {};
};
