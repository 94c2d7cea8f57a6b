import type { ModelMessage, ModelRequest, PromptLayer } from './model-adapter.ts';

const LAYER_ORDER: readonly PromptLayer[] = ['kernel', 'product', 'focus', 'attachments', 'instruction'];

/**
 * The scripted model's `/context` answer: a Markdown table of what reached it (docs/agent-loop.md,
 * "Scripted scenarios"), read from the request itself: each prompt layer it got with its size and
 * whether it was cut, the history (messages, and the earlier turns the note says were left out),
 * the user's message, the number of tools, the reasoning effort when the run asked for one, and
 * the user's earlier messages it got (so a branch shows which turns reached the model).
 */
export function buildContextReport(request: ModelRequest): string {
  const { messages } = request;
  const current = messages.findLastIndex((message) => message.role === 'user');
  const rows = LAYER_ORDER.flatMap((layer) =>
    messages
      .filter((message): message is Extract<ModelMessage, { role: 'system' }> => message.role === 'system')
      .filter((message) => message.layer === layer)
      .map((message) => `| ${layer} | ${message.content.length} | ${message.truncated === true ? 'yes' : 'no'} |`),
  );
  const note = messages.find((message) => message.role === 'system' && message.layer === 'history_note');
  const leftOut = note === undefined ? 0 : Number(/(\d+) earlier turn/.exec(note.content)?.[1] ?? 0);
  const history = messages.slice(0, Math.max(0, current)).filter((message) => message.role !== 'system');
  const text = messages[current]?.content ?? '';
  const askedBefore = history.flatMap((message) =>
    message.role === 'user' ? [`“${message.content.replace(/\s+/g, ' ').slice(0, 40)}”`] : [],
  );
  return [
    '### What reached the model',
    '',
    '| Layer | Characters | Cut |',
    '| --- | --- | --- |',
    ...rows,
    `| history | ${history.length} messages | ${leftOut === 0 ? 'no' : `${leftOut} earlier turns left out`} |`,
    `| message | ${text.length} | no |`,
    '',
    `Tools: ${request.tools.length}.`,
    ...(request.reasoningEffort === undefined ? [] : [`Reasoning effort: ${request.reasoningEffort}.`]),
    ...(askedBefore.length === 0 ? [] : [`Asked before: ${askedBefore.join(', ')}.`]),
  ].join('\n');
}
