import type { FinishReason, TokenUsage } from '../../../core/protocol.ts';
import { dataOf, startEngine } from '../../agent-loop/test-support/run-engine-harness.ts';
import type { ToolDefinition } from '../../tools/tool-registry.ts';
import { createOpenAiCompatibleModel } from '../openai-compatible-model.ts';
import { startFakeOpenAiServer } from './fake-openai-server.ts';
import type { ProviderFixture } from './provider-fixtures.ts';
import { computeExpectation } from './provider-fixtures.ts';

/** What the run engine made of a recorded stream, as a user and the next model call see it. */
export interface FixtureReplay {
  /** Round 1's answer text as the snapshot shows it (`undefined`: no answer message at all). */
  answer: string | undefined;
  /** How round 1's answer message ended. */
  answerFinishReason: FinishReason | undefined;
  /** Round 1's reasoning text as the snapshot shows it. */
  reasoning: string | undefined;
  /** The tool calls the engine logged (`TOOL_CALL_START` name, `TOOL_CALL_END` args), in order. */
  toolCalls: { name: string; args: unknown }[];
  /** The tool calls the engine sent back to the provider in its next request. */
  sentToolCalls: { id: string; arguments: string }[];
  /** The usage of the run's terminal event. */
  usage: TokenUsage | undefined;
  /** The `RUN_ERROR` code, when the run failed. */
  errorCode: string | undefined;
  /** How many requests the provider got (a tool round adds one, a retry adds one). */
  requestCount: number;
}

/**
 * Replays a recorded stream through the real engine and the OpenAI-compatible adapter: a local
 * fake provider serves the fixture's frames over HTTP, and, when the fixture calls tools (each
 * registered with an open schema), `followUp` answers the next request. Returns what the run
 * showed and what it sent back.
 */
export async function replayProviderFixture(
  fixture: ProviderFixture,
  followUp: ProviderFixture,
): Promise<FixtureReplay> {
  const server = await startFakeOpenAiServer();
  try {
    server.reply({ kind: 'stream', pieces: fixture.frames }, { kind: 'stream', pieces: followUp.frames });
    const tools = computeExpectation(fixture.payloads).toolCalls.map((call): ToolDefinition => ({
      name: call.name,
      description: `Replayed tool ${call.name}`,
      parameters: { type: 'object' },
      policy: 'allow',
      run: () => Promise.resolve({ ok: true }),
    }));
    const run = startEngine('Replay the recorded stream', {
      model: createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'replay', now: () => 0 }),
      tools,
      limits: { maxRetries: 1 },
    });
    await run.done;
    const events = run.events();
    const roundTwo = events.findIndex((event) => dataOf([event], 'STEP_STARTED').at(0)?.stepName === 'round:2');
    const roundOne = roundTwo === -1 ? events : events.slice(0, roundTwo);
    const snapshot = run.handle.snapshot();
    const messageOf = (type: 'TEXT_MESSAGE_START' | 'REASONING_MESSAGE_START') => {
      const started = dataOf(roundOne, type).at(-1);
      return snapshot.messages.find((message) => message.messageId === started?.messageId);
    };
    const answer = messageOf('TEXT_MESSAGE_START');
    const names = dataOf(events, 'TOOL_CALL_START').map((start) => start.toolCallName);
    return {
      answer: answer?.content,
      answerFinishReason: answer?.finishReason,
      reasoning: messageOf('REASONING_MESSAGE_START')?.content,
      toolCalls: dataOf(events, 'TOOL_CALL_END').map((end, index) => ({ name: names[index] ?? '', args: end.args })),
      sentToolCalls: readSentToolCalls(server.requests[1]?.body),
      usage: (dataOf(events, 'RUN_FINISHED').at(0) ?? dataOf(events, 'RUN_ERROR').at(0))?.usage?.[0],
      errorCode: dataOf(events, 'RUN_ERROR').at(0)?.code,
      requestCount: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

/** The `tool_calls` of the assistant message in a Chat Completions request body. */
function readSentToolCalls(body: Record<string, unknown> | undefined): FixtureReplay['sentToolCalls'] {
  const messages = Array.isArray(body?.['messages']) ? body['messages'] : [];
  const assistant: unknown = messages.find((message) => isRecord(message) && message['role'] === 'assistant');
  const calls = isRecord(assistant) && Array.isArray(assistant['tool_calls']) ? assistant['tool_calls'] : [];
  return calls.filter(isRecord).map((call) => ({
    id: String(call['id']),
    arguments: isRecord(call['function']) ? String(call['function']['arguments']) : '',
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
