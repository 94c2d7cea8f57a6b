import type { FakeReply } from '../../src/server/models/test-support/fake-openai-server.ts';
import { completionChunk } from '../../src/server/models/test-support/fake-openai-server.ts';

/** One tool call a scripted reply makes: the provider's call id, the tool's wire name and its arguments. */
export interface ScriptedCall {
  id: string;
  /** The name as the provider sees it (`orders_lookup` for `orders.lookup`: src/server/models/tool-name-codec.ts). */
  name: string;
  args: Record<string, unknown>;
}

/** Splits `text` into `count` pieces of about the same length (fewer when it is shorter). */
function split(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** The chunks of one call as providers stream it: id and name first, then the arguments in fragments. */
function callChunks(call: ScriptedCall, index: number, argsText = JSON.stringify(call.args)): string[] {
  return [
    completionChunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    }),
    ...split(argsText, 3).map((fragment) =>
      completionChunk({ tool_calls: [{ index, function: { arguments: fragment } }] }),
    ),
  ];
}

/** The opening chunks of a reply: the role, then reasoning (`reasoning_content`) and text, each in fragments. */
function openingChunks(options: { reasoning?: string; text?: string }): string[] {
  return [
    completionChunk({ role: 'assistant', content: null }),
    ...split(options.reasoning ?? '', 2).map((fragment) => completionChunk({ reasoning_content: fragment })),
    ...split(options.text ?? '', 3).map((fragment) => completionChunk({ content: fragment })),
  ];
}

/** A reply that only answers: `text` in fragments, `finish_reason: "stop"`, `[DONE]`. */
export function answerReply(text: string): FakeReply {
  return {
    kind: 'stream',
    pieces: [...openingChunks({ text }), completionChunk({}, 'stop'), 'data: [DONE]\n\n'],
  };
}

/**
 * A reply that calls tools (after optional reasoning and text): each call's id and name, then its
 * arguments in fragments, one call after the other, `finish_reason: "tool_calls"`, `[DONE]`.
 */
export function toolCallsReply(
  calls: readonly ScriptedCall[],
  options: { reasoning?: string; text?: string } = {},
): FakeReply {
  return {
    kind: 'stream',
    pieces: [
      ...openingChunks(options),
      ...calls.flatMap((call, index) => callChunks(call, index)),
      completionChunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ],
  };
}

/**
 * A reply whose connection breaks inside a call's arguments: optional text, the call's id and
 * name, the first half of its arguments, then the socket is destroyed (no finish reason, no `[DONE]`).
 */
export function cutInArgumentsReply(call: ScriptedCall, options: { text?: string } = {}): FakeReply {
  const argsText = JSON.stringify(call.args);
  return {
    kind: 'stream',
    pieces: [...openingChunks(options), ...callChunks(call, 0, argsText.slice(0, Math.floor(argsText.length / 2)))],
    cut: true,
  };
}
