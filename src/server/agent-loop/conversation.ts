import type { RunSnapshot, SnapshotMessage } from '../../core/protocol.ts';
import type { ModelMessage, ToolSpec } from '../models/model-adapter.ts';

/** Builds the first model messages of a run: the system prompt, earlier turns, the user's input. */
export function buildInitialMessages(options: {
  systemPrompt: string;
  history: readonly SnapshotMessage[];
  inputText: string;
}): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'system', content: options.systemPrompt }];
  for (const message of options.history) {
    if (message.content === '' || message.status === 'streaming') continue;
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') messages.push({ role: 'assistant', content: message.content });
  }
  messages.push({ role: 'user', content: options.inputText });
  return messages;
}

/** Returns the text of the `/inputs` with these ids, in the order given, as user messages. */
export function readInputMessages(snapshot: RunSnapshot, inputIds: readonly string[]): ModelMessage[] {
  return inputIds.flatMap((inputId) => {
    const input = snapshot.inputs.find((candidate) => candidate.inputId === inputId);
    const message = snapshot.messages.find((candidate) => candidate.messageId === input?.messageId);
    return message === undefined ? [] : [{ role: 'user' as const, content: message.content }];
  });
}

/** Estimates the context size in tokens as characters / 4 over messages, tool calls and tool specs. */
export function estimateContextTokens(messages: readonly ModelMessage[], tools: readonly ToolSpec[]): number {
  let chars = JSON.stringify(tools).length;
  for (const message of messages) {
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
    }
  }
  return Math.ceil(chars / 4);
}
