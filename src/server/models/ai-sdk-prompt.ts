import type { ModelMessage, ModelRequest } from './model-adapter.ts';
import type { ToolNameCodec } from './tool-name-codec.ts';

/** A message of an AI SDK prompt (`LanguageModelV3Prompt` / `V4`), as far as this adapter writes one. */
export type AiSdkPromptMessage =
  | { role: 'system'; content: string }
  | {
      role: 'user';
      content: ({ type: 'text'; text: string } | { type: 'file'; data: string; mediaType: string })[];
    }
  | {
      role: 'assistant';
      content: (
        { type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
      )[];
    }
  | { role: 'tool'; content: AiSdkToolResultPart[] };

/** A tool result of an AI SDK prompt. */
export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text' | 'error-text'; value: string } | { type: 'execution-denied'; reason: string };
}

/** A function tool of an AI SDK call (`LanguageModelV3FunctionTool`). */
export interface AiSdkFunctionTool {
  type: 'function';
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Writes the loop's messages as an AI SDK prompt: a user text part per user message (then a file
 * part per attached image, its bytes in base64), the
 * assistant's text and tool calls (arguments parsed back into JSON, `{}` when they are not JSON;
 * with `argumentsAsText`, valid JSON stays the text the model wrote), and consecutive tool
 * results as one tool message, a denied call as `execution-denied` and any other unfinished one
 * as `error-text`. Tool names go through `names`.
 */
export function toAiSdkPrompt(
  messages: readonly ModelMessage[],
  names: ToolNameCodec,
  options: { argumentsAsText?: boolean } = {},
): AiSdkPromptMessage[] {
  const toolNames = new Map<string, string>();
  const prompt: AiSdkPromptMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({
          role: 'user',
          content: [
            { type: 'text', text: message.content },
            ...(message.images ?? []).map((image) => ({
              type: 'file' as const,
              data: image.base64,
              mediaType: image.mediaType,
            })),
          ],
        });
        break;
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => {
          toolNames.set(call.id, call.name);
          return {
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: names.encode(call.name),
            input: readArguments(call.arguments, options.argumentsAsText === true),
          };
        });
        const text = message.content === '' ? [] : [{ type: 'text' as const, text: message.content }];
        prompt.push({ role: 'assistant', content: [...text, ...calls] });
        break;
      }
      case 'tool': {
        const part: AiSdkToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: names.encode(toolNames.get(message.toolCallId) ?? ''),
          output:
            message.status === 'completed'
              ? { type: 'text', value: message.content }
              : message.status === 'denied'
                ? { type: 'execution-denied', reason: message.content }
                : { type: 'error-text', value: message.content },
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

/** The request's tools as AI SDK function tools, names encoded. */
export function toAiSdkTools(request: ModelRequest, names: ToolNameCodec): AiSdkFunctionTool[] {
  return request.tools.map((tool) => ({
    type: 'function',
    name: names.encode(tool.name),
    description: tool.description,
    inputSchema: tool.parameters,
  }));
}

/** The call's arguments as JSON (`{}` when they are not JSON), or as their own text when `asText` and valid. */
function readArguments(text: string, asText: boolean): unknown {
  try {
    const value = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
    return asText && text.trim() !== '' ? text : value;
  } catch {
    return {};
  }
}
