import type { ModelChunk, ModelMessage, ModelToolCall } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';

/**
 * The scripted model's `/shape <name>` scenarios: the shapes real models stream that the other
 * scenarios never do (a call with no text before it, parallel calls, a call cut mid-arguments, …),
 * so the demo and the tests meet them offline.
 */
export const SHAPES = {
  'silent-call': { about: 'a tool call with no text before it, then an answer', tools: ['orders.lookup'] },
  parallel: { about: 'two tool calls in one response, then an answer', tools: ['orders.lookup'] },
  'silent-rounds': { about: 'two rounds of calls without any text, then an answer', tools: ['orders.lookup'] },
  'approval-first': {
    about: 'a call that asks for approval (`drafts.delete`) with no text before it',
    tools: ['drafts.delete'],
  },
  'reasoning-call': { about: 'reasoning, then a call without text, then an answer', tools: ['orders.lookup'] },
  'tool-error': { about: 'a call that fails (invalid arguments), then an answer', tools: ['orders.lookup'] },
  'cut-args': {
    about: "a call streamed in fragments whose stream breaks mid-arguments once, then the retry's call",
    tools: ['orders.lookup'],
  },
  'cancel-tool': {
    about: 'a call to a tool that runs for seconds with progress: press Stop while it runs',
    tools: ['report.generate'],
  },
} as const satisfies Record<string, { about: string; tools: readonly string[] }>;

/** The name of a `/shape` scenario. */
export type ShapeName = keyof typeof SHAPES;

/** Whether `name` names a shape. */
export function isShapeName(name: string): name is ShapeName {
  return Object.hasOwn(SHAPES, name);
}

type ToolResult = Extract<ModelMessage, { role: 'tool' }>;

/** What a shape reads of the turn so far: the calls it made and their results. */
export interface ShapeTurn {
  toolRounds: number;
  toolCalls: readonly ModelToolCall[];
  toolResults: readonly ToolResult[];
}

/** How a shape speaks: the scripted model's paced text and reasoning, its pause and its finish. */
export interface ShapeVoice {
  say(type: 'text' | 'reasoning', text: string): AsyncGenerator<ModelChunk>;
  /** Waits one delta's delay (between a call's fragments). */
  pause(): Promise<void>;
  finish(reason: 'stop' | 'tool_calls'): ModelChunk[];
}

/** The answer of `/shape` alone or with an unknown name: the shapes there are. */
export function describeShapes(asked: string): string {
  const lines = Object.entries(SHAPES).map(([name, shape]) => `- \`/shape ${name}\`: ${shape.about}`);
  const intro =
    asked === '' ? 'Each shape streams the way real models do:' : `There is no shape \`${asked}\`. The shapes are:`;
  return [intro, '', ...lines].join('\n');
}

/** Streams one response of the shape `name` in the turn so far; `attempt` is the round's attempt. */
export async function* streamShape(
  name: ShapeName,
  turn: ShapeTurn,
  attempt: number,
  voice: ShapeVoice,
): AsyncGenerator<ModelChunk> {
  const round = turn.toolRounds + 1;
  const call = (name: string, args: Record<string, unknown>, index = 0): ModelChunk => ({
    type: 'tool_call',
    id: `call_${round}_${index + 1}`,
    name,
    arguments: JSON.stringify(args),
  });
  const answer = async function* (text: string): AsyncGenerator<ModelChunk> {
    yield* voice.say('text', text);
    yield* voice.finish('stop');
  };
  const calling = function* (...calls: ModelChunk[]): Generator<ModelChunk> {
    yield* calls;
    yield* voice.finish('tool_calls');
  };
  const done = turn.toolResults.length > 0;

  switch (name) {
    case 'silent-call':
      if (!done) return yield* calling(call('orders.lookup', { orderId: 'A-1001' }));
      return yield* answer(`Order ${describeOrders(turn.toolResults)}.`);
    case 'parallel':
      if (!done)
        return yield* calling(
          call('orders.lookup', { orderId: 'A-1001' }, 0),
          call('orders.lookup', { orderId: 'A-1002' }, 1),
        );
      return yield* answer(`Both orders at once: ${describeOrders(turn.toolResults)}.`);
    case 'silent-rounds':
      if (turn.toolRounds < 2) return yield* calling(call('orders.lookup', { orderId: `A-${1001 + turn.toolRounds}` }));
      return yield* answer(`Two rounds of lookups, one order each: ${describeOrders(turn.toolResults)}.`);
    case 'approval-first': {
      const result = turn.toolResults.at(-1);
      if (result === undefined) return yield* calling(call('drafts.delete', { draftId: 'draft-42' }));
      if (result.status === 'completed') return yield* answer('Done: **draft-42** was deleted.');
      if (result.status === 'denied') return yield* answer('Understood: I did **not** delete draft-42.');
      return yield* answer(`draft-42 was not deleted (${result.status}): ${result.content}`);
    }
    case 'reasoning-call':
      if (!done) {
        yield* voice.say('reasoning', 'The user asks about an order; I will look it up before saying anything.');
        return yield* calling(call('orders.lookup', { orderId: 'A-1001' }));
      }
      return yield* answer(`Order ${describeOrders(turn.toolResults)}.`);
    case 'tool-error': {
      const result = turn.toolResults.at(-1);
      if (result === undefined) return yield* calling(call('orders.lookup', { orderId: 'order one' }));
      return yield* answer(
        result.status === 'completed'
          ? `Unexpectedly, the lookup worked: ${result.content}`
          : `The lookup ${result.status}: ${result.content} Order ids look like \`A-1001\`; tell me yours and I will look it up.`,
      );
    }
    case 'cut-args':
      if (!done) return yield* streamCutCall(round, attempt, voice);
      return yield* answer(`Recovered from the cut: order ${describeOrders(turn.toolResults)}.`);
    case 'cancel-tool': {
      const result = turn.toolResults.at(-1);
      if (result === undefined) return yield* calling(call('report.generate', { topic: 'Press Stop', sections: 10 }));
      return yield* answer(
        result.status === 'completed'
          ? `The report finished before anyone pressed Stop:\n\n${result.content}`
          : `The report ended ${result.status}: ${result.content}`,
      );
    }
  }
}

/**
 * The call of `cut-args` in `tool_call_delta` fragments, as providers stream them: the first
 * attempt breaks off inside the arguments with a retryable error, the retry streams it whole.
 */
async function* streamCutCall(round: number, attempt: number, voice: ShapeVoice): AsyncGenerator<ModelChunk> {
  const id = `call_${round}_1`;
  yield { type: 'tool_call_delta', index: 0, id, name: 'orders.lookup' };
  for (const argumentsDelta of ['{"orderId"', ':"A-10']) {
    await voice.pause();
    yield { type: 'tool_call_delta', index: 0, argumentsDelta };
  }
  if (attempt === 1) {
    throw new ModelError('The model service had a temporary problem.', {
      retryable: true,
      providerMessage: 'scripted: stream cut inside a tool call on attempt 1',
    });
  }
  await voice.pause();
  yield { type: 'tool_call_delta', index: 0, argumentsDelta: '01"}' };
  yield* voice.finish('tool_calls');
}

/** The orders the results describe: `A-1001 is shipped (DHL)`, or how a lookup ended. */
function describeOrders(results: readonly ToolResult[]): string {
  return results
    .map((result) => {
      if (result.status !== 'completed') return `a lookup ended ${result.status}`;
      const order = parseObject(result.content);
      return `${String(order['orderId'])} is ${String(order['status'])} (${String(order['carrier'])})`;
    })
    .join('; ');
}

/** The JSON object `text` holds; an empty one when it holds anything else. */
export function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
