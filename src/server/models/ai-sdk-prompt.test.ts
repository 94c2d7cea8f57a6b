import { describe, expect, it } from 'vitest';
import { toAiSdkPrompt } from './ai-sdk-prompt.ts';
import { createToolNameCodec } from './tool-name-codec.ts';

describe('toAiSdkPrompt', () => {
  it('writes a user message’s attached images as file parts after its text', () => {
    const prompt = toAiSdkPrompt(
      [{ role: 'user', content: 'What is this?', images: [{ mediaType: 'image/png', base64: 'iVBORw0KGgo=' }] }],
      createToolNameCodec({ messages: [], tools: [] }),
    );
    expect(prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
        ],
      },
    ]);
  });
});
