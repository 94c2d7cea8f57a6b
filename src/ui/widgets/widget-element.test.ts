import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotToolCall } from '../../core/index.ts';
import { createMessage, mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => document.body.replaceChildren());

/** A completed tool call whose result shows `root` as its widget. */
function widgetCall(root: unknown): SnapshotToolCall {
  return {
    toolCallId: 'tool-1',
    name: 'returns.form',
    parentMessageId: 'a1',
    args: {},
    status: 'completed',
    result: {
      messageId: 'r1',
      content: 'A return form.',
      widget: { widgetId: 'w1', root, revision: 1, digest: 'sha256-test' },
    },
  } as SnapshotToolCall;
}

describe('<agent-chat-widget> words', () => {
  it('says "Submitted" and "can’t show this" in the widget’s language, English by default', async () => {
    const root = {
      type: 'card',
      children: [
        { type: 'form', action: 'rate', submitLabel: 'Send', submitted: true, fields: [] },
        { type: 'marquee', text: 'not in the catalogue' },
      ],
    };
    const english = await mountAgentChat();
    await english.emit({ messages: [createMessage({ messageId: 'a1' })], toolCalls: [widgetCall(root)] });
    const words = (chat: typeof english) => [
      chat.root.querySelector('agent-chat-widget .widget-submitted')?.textContent,
      chat.root.querySelector('agent-chat-widget .widget-unsupported')?.textContent,
    ];
    await expect.poll(() => words(english)).toEqual(['Submitted', 'Can’t show this part of the answer.']);

    const translated = await mountAgentChat((chat) => {
      chat.strings = { widgetSubmitted: 'Envoyé', widgetUnsupported: 'Impossible d’afficher cette partie.' };
    });
    await translated.emit({ messages: [createMessage({ messageId: 'a1' })], toolCalls: [widgetCall(root)] });
    await expect.poll(() => words(translated)).toEqual(['Envoyé', 'Impossible d’afficher cette partie.']);
  });
});
