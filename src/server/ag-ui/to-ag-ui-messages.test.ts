import { describe, expect, it } from 'vitest';
import { toAgUiMessages } from './to-ag-ui-messages.ts';

describe('toAgUiMessages', () => {
  it('sends a user message’s attached images as AG-UI image parts with inline data, after its text', () => {
    expect(
      toAgUiMessages([
        { role: 'system', content: 'kernel' },
        { role: 'user', content: 'What is this?', images: [{ mediaType: 'image/png', base64: 'iVBORw0KGgo=' }] },
        { role: 'user', content: 'Plain' },
      ]),
    ).toEqual([
      {
        id: 'm0',
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'data', value: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        ],
      },
      { id: 'm1', role: 'user', content: 'Plain' },
    ]);
  });
});
