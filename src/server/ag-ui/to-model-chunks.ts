import type { Event as AgUiEvent } from '@ag-ui/core';
import { contentToText, EventType } from '@ag-ui/core';
import { sha256Digest } from '../json/canonical-json.ts';
import type { ModelChunk } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-adapter.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import type { JsonPatchOperation } from './apply-json-patch.ts';
import { applyJsonPatch, JsonPatchError } from './apply-json-patch.ts';

/** Options of {@link createModelChunkMapper}. */
export interface ModelChunkMapperOptions {
  ids: (prefix: string) => string;
  /** The thread's state before this AG-UI run (from earlier `STATE_*` events). */
  state: unknown;
  /** A state or custom event whose JSON is longer is replaced by a `NOTICE` (default 65 536). */
  maxEventBytes: number;
  /** A result of a tool the agent ran itself is cut to this many characters (flagged `truncated`). */
  maxResultChars: number;
}

/** Maps one AG-UI run's events to the loop's model chunks; `finished` tells when `RUN_FINISHED` came. */
export interface ModelChunkMapper {
  map(event: AgUiEvent): ModelChunk[];
  isFinished(): boolean;
  /** The thread's state after the events mapped so far. */
  state(): unknown;
}

interface OpenToolCall {
  name: string;
  argumentsText: string;
}

/**
 * Creates the mapping of docs/ag-ui.md, "Consumer": assistant text and reasoning (also from
 * `*_CHUNK` events) stream as the model's text and reasoning, each `TEXT_MESSAGE_END` ends a
 * message; a tool call the agent answered itself (`TOOL_CALL_RESULT`) is logged as an ungoverned
 * record of what the agent did; a tool call it leaves unanswered at `RUN_FINISHED` is the model's
 * tool call, for the loop to govern and run. State and custom events pass into our log, the state
 * is folded for the next run. `RUN_ERROR`, and an interrupt outcome (not supported yet), throw a
 * non-retryable `ModelError` with the agent's own words for the server log only.
 */
export function createModelChunkMapper(options: ModelChunkMapperOptions): ModelChunkMapper {
  const { ids, maxEventBytes, maxResultChars } = options;
  let state = options.state;
  let isFinished = false;
  const assistantTexts = new Set<string>();
  let chunkTextId: string | undefined;
  let chunkToolCallId: string | undefined;
  const calls = new Map<string, OpenToolCall>();

  const passThrough = (event: PendingEvent): ModelChunk[] => {
    const bytes = Buffer.byteLength(JSON.stringify(event.data), 'utf8');
    if (bytes <= maxEventBytes) return [{ type: 'event', event }];
    const notice = `The agent sent a ${event.type} of ${bytes} bytes; events over ${maxEventBytes} bytes are not kept.`;
    return [
      {
        type: 'event',
        event: { type: 'NOTICE', data: { level: 'warning', code: 'AG_UI_EVENT_TOO_LARGE', message: notice } },
      },
    ];
  };
  const openCall = (toolCallId: string, name: string): void => {
    if (!calls.has(toolCallId)) calls.set(toolCallId, { name, argumentsText: '' });
  };
  const addArguments = (toolCallId: string, delta: string): void => {
    const call = calls.get(toolCallId);
    if (call !== undefined) call.argumentsText += delta;
  };
  const recordAgentToolCall = (toolCallId: string, content: string): ModelChunk[] => {
    const call = calls.get(toolCallId);
    if (call === undefined) return [];
    calls.delete(toolCallId);
    let args: unknown = call.argumentsText;
    try {
      args = call.argumentsText.trim() === '' ? {} : (JSON.parse(call.argumentsText) as unknown);
    } catch {
      // Kept as the raw text: it is a record of what the agent ran, not something we run.
    }
    const ourId = ids('tc');
    const isTruncated = content.length > maxResultChars;
    return [
      { type: 'text_end' },
      { type: 'event', event: { type: 'TOOL_CALL_START', data: { toolCallId: ourId, toolCallName: call.name } } },
      {
        type: 'event',
        event: { type: 'TOOL_CALL_END', data: { toolCallId: ourId, args, argsDigest: sha256Digest(args) } },
      },
      {
        type: 'event',
        event: {
          type: 'TOOL_CALL_RESULT',
          data: {
            toolCallId: ourId,
            messageId: ids('msg'),
            content: isTruncated ? content.slice(0, maxResultChars) : content,
            status: 'completed',
            ...(isTruncated ? { truncated: true } : {}),
          },
        },
      },
    ];
  };

  const map = (event: AgUiEvent): ModelChunk[] => {
    switch (event.type) {
      case EventType.TEXT_MESSAGE_START:
        if ((event.role ?? 'assistant') === 'assistant') assistantTexts.add(event.messageId);
        return [];
      case EventType.TEXT_MESSAGE_CONTENT:
        return assistantTexts.has(event.messageId) ? [{ type: 'text', delta: event.delta }] : [];
      case EventType.TEXT_MESSAGE_END:
        return assistantTexts.delete(event.messageId) ? [{ type: 'text_end' }] : [];
      case EventType.TEXT_MESSAGE_CHUNK: {
        if ((event.role ?? 'assistant') !== 'assistant') return [];
        const isNewMessage = event.messageId !== undefined && event.messageId !== chunkTextId;
        const boundary: ModelChunk[] = isNewMessage && chunkTextId !== undefined ? [{ type: 'text_end' }] : [];
        if (isNewMessage) chunkTextId = event.messageId;
        return [...boundary, ...(event.delta === undefined ? [] : [{ type: 'text' as const, delta: event.delta }])];
      }
      case EventType.REASONING_MESSAGE_CONTENT:
        return [{ type: 'reasoning', delta: event.delta }];
      case EventType.REASONING_MESSAGE_CHUNK:
        return event.delta === undefined ? [] : [{ type: 'reasoning', delta: event.delta }];
      case EventType.TOOL_CALL_START:
        openCall(event.toolCallId, event.toolCallName);
        return [];
      case EventType.TOOL_CALL_ARGS:
        addArguments(event.toolCallId, event.delta);
        return [];
      case EventType.TOOL_CALL_CHUNK: {
        const toolCallId = event.toolCallId ?? chunkToolCallId;
        if (toolCallId === undefined) return [];
        chunkToolCallId = toolCallId;
        if (event.toolCallName !== undefined) openCall(toolCallId, event.toolCallName);
        addArguments(toolCallId, event.delta ?? '');
        return [];
      }
      case EventType.TOOL_CALL_RESULT:
        return recordAgentToolCall(event.toolCallId, contentToText(event.content));
      case EventType.STATE_SNAPSHOT:
        state = event.snapshot;
        return passThrough({ type: 'STATE_SNAPSHOT', data: { snapshot: event.snapshot } });
      case EventType.STATE_DELTA:
        try {
          state = applyJsonPatch(state ?? {}, event.delta as JsonPatchOperation[]);
        } catch (error) {
          if (!(error instanceof JsonPatchError)) throw error;
          const message = `The agent sent a state change that does not apply (${error.message}); it was not kept.`;
          return [
            {
              type: 'event',
              event: { type: 'NOTICE', data: { level: 'warning', code: 'AG_UI_STATE_DELTA_REJECTED', message } },
            },
          ];
        }
        return passThrough({ type: 'STATE_DELTA', data: { delta: event.delta } });
      case EventType.CUSTOM:
        return passThrough({ type: 'CUSTOM', data: { name: event.name, value: event.value } });
      case EventType.RUN_ERROR:
        throw new ModelError('The agent reported an error.', {
          retryable: false,
          providerMessage: `${event.code ?? 'no code'}: ${event.message}`,
        });
      case EventType.RUN_FINISHED:
        return finish(event);
      default:
        // Lifecycle, steps, snapshots of messages, activities, raw and subagent markers: nothing to keep.
        return [];
    }
  };

  const finish = (event: Extract<AgUiEvent, { type: EventType.RUN_FINISHED }>): ModelChunk[] => {
    if (event.outcome?.type === 'interrupt') {
      throw new ModelError('The agent asked for an answer this server cannot route yet.', {
        retryable: false,
        providerMessage: `interrupt outcome: ${JSON.stringify(event.outcome.interrupts)}`,
      });
    }
    isFinished = true;
    const usage = (event.usage ?? []).reduce<{ inputTokens: number; outputTokens: number }>(
      (sum, entry) => ({
        inputTokens: sum.inputTokens + (entry.inputTokens ?? 0),
        outputTokens: sum.outputTokens + (entry.outputTokens ?? 0),
      }),
      { inputTokens: 0, outputTokens: 0 },
    );
    const pending = [...calls.entries()].map(([id, call]): ModelChunk => ({
      type: 'tool_call',
      id,
      name: call.name,
      arguments: call.argumentsText,
    }));
    return [
      ...(event.usage === undefined ? [] : [{ type: 'usage' as const, usage }]),
      ...pending,
      { type: 'finish', reason: pending.length > 0 ? 'tool_calls' : 'stop' },
    ];
  };

  return { map, isFinished: () => isFinished, state: () => state };
}
