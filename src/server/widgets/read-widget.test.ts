import { describe, expect, it } from 'vitest';
import type { WidgetNode } from '../../core/protocol.ts';
import { digestWidget, readWidget } from './read-widget.ts';

const options = { imageOrigins: ['https://images.example.com'], mintId: () => 'wgt_minted' };

function read(root: unknown, widgetId?: string) {
  return readWidget(widgetId === undefined ? { root } : { widgetId, root }, options);
}

function problemsOf(root: unknown): string[] {
  const result = read(root);
  return 'problems' in result ? result.problems : [];
}

const orderCard: WidgetNode = {
  type: 'card',
  children: [
    { type: 'title', text: 'Order #1042' },
    { type: 'badge', text: 'Shipped', tone: 'success' },
    { type: 'table', columns: ['Item', 'Qty'], rows: [['Mug', '2']] },
    { type: 'button', label: 'Track', action: 'track' },
    {
      type: 'form',
      action: 'change_address',
      submitLabel: 'Save',
      fields: [
        { type: 'textarea', name: 'address', label: 'Address', required: true },
        { type: 'select', name: 'speed', label: 'Speed', options: [{ value: 'std', label: 'Standard' }], value: 'std' },
        { type: 'checkbox', name: 'gift', label: 'Gift' },
        { type: 'date', name: 'on', label: 'Deliver on' },
      ],
    },
    { type: 'image', src: 'https://images.example.com/mug.png', alt: 'A mug' },
  ],
};

describe('readWidget', () => {
  it('accepts a catalogue tree and digests its id with its tree', () => {
    const result = read(orderCard, 'order-1042');
    expect(result).toEqual({
      widget: { widgetId: 'order-1042', root: orderCard, revision: 0, digest: digestWidget('order-1042', orderCard) },
    });
    expect(digestWidget('order-1042', orderCard)).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
    expect(digestWidget('order-1042', orderCard, 1)).not.toBe(digestWidget('order-1042', orderCard));
    expect(digestWidget('order-1043', orderCard)).not.toBe(digestWidget('order-1042', orderCard));
  });

  it('mints an id when the widget has none', () => {
    const result = read({ type: 'divider' });
    expect('widget' in result && result.widget.widgetId).toBe('wgt_minted');
  });

  it.each([
    ['an unknown node type', { type: 'iframe', src: 'https://x' }, 'must be one of'],
    ['a style property', { type: 'text', text: 'hi', style: 'color:red' }, 'style is not allowed'],
    [
      'an event handler property',
      { type: 'button', label: 'x', action: 'a', onclick: 'alert(1)' },
      'onclick is not allowed',
    ],
    ['an html property', { type: 'text', text: 'x', html: '<b>x</b>' }, 'html is not allowed'],
    ['an icon outside the set', { type: 'icon', name: 'skull' }, 'must be one of'],
    ['a script image', { type: 'image', src: 'javascript:alert(1)', alt: '' }, 'must match pattern'],
    [
      'an image from another origin',
      { type: 'image', src: 'https://evil.example/x.png', alt: '' },
      'origin the server allows',
    ],
    ['a ragged table', { type: 'table', columns: ['a', 'b'], rows: [['1']] }, 'must have 2 cells'],
    [
      'too many rows',
      { type: 'table', columns: ['a'], rows: Array.from({ length: 10_000 }, () => ['x']) },
      'must NOT have more than 200 items',
    ],
    ['a long text', { type: 'text', text: 'x'.repeat(2_001) }, 'at most 2000 characters'],
    [
      'a twice-used field name',
      {
        type: 'form',
        action: 'a',
        submitLabel: 'Go',
        fields: [
          { type: 'text', name: 'n', label: 'N' },
          { type: 'text', name: 'n', label: 'M' },
        ],
      },
      'used twice',
    ],
    [
      'a value off its options',
      {
        type: 'form',
        action: 'a',
        submitLabel: 'Go',
        fields: [{ type: 'radio', name: 'r', label: 'R', options: [{ value: 'a', label: 'A' }], value: 'b' }],
      },
      'not one of its options',
    ],
  ])('refuses %s', (_name, root, problem) => {
    expect(problemsOf(root).join('\n')).toContain(problem);
  });

  it('refuses a tree nested past the depth limit without walking it recursively', () => {
    let root: unknown = { type: 'text', text: 'deep' };
    for (let level = 0; level < 100_000; level += 1) root = { type: 'box', children: [root] };
    expect(problemsOf(root)).toEqual(['the widget nests deeper than 8 levels']);
  });

  it('refuses a tree of more nodes than the limit', () => {
    const rows = Array.from({ length: 40 }, () => ({
      type: 'row',
      children: Array.from({ length: 9 }, () => ({ type: 'divider' })),
    }));
    expect(problemsOf({ type: 'column', children: rows })).toEqual(['the widget has more than 300 nodes']);
  });

  it('refuses a widget that is not an object or has a bad id', () => {
    expect(readWidget('<script>', options)).toEqual({ problems: ['the widget must be an object {widgetId?, root}'] });
    expect(read({ type: 'divider' }, 'bad id!')).toHaveProperty('problems');
  });
});
