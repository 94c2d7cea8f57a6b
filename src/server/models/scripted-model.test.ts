import { describe, expect, it } from 'vitest';
import { sha256Digest } from '../json/canonical-json.ts';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { CODE_ANSWER } from './scripted-markdown.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';

/** A product's own tool, the kind a team tries offline before it has a model. */
function weatherTool(policy: ToolDefinition['policy'] = 'allow'): ToolDefinition & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name: 'weather.get',
    description: 'The weather in a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
    policy,
    calls,
    run: (args) => {
      calls.push(args);
      return Promise.resolve({ city: args['city'], sky: 'clear ```fenced``` sky', celsius: 21 });
    },
  };
}

const answerOf = (run: ReturnType<typeof startEngine>): string => run.handle.snapshot().messages.at(-1)?.content ?? '';

describe('the scripted model /call <tool> <json-args>', () => {
  it("calls a product's own tool with the given arguments and answers with its result", async () => {
    const tool = weatherTool();
    const run = startEngine('/call weather.get {"city":"Paris"}', { tools: [tool] });
    await run.done;
    expect(tool.calls).toEqual([{ city: 'Paris' }]);
    expect(dataOf(run.events(), 'TOOL_CALL_END')).toEqual([
      { toolCallId: 'tc_1', args: { city: 'Paris' }, argsDigest: sha256Digest({ city: 'Paris' }) },
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((r) => r.status)).toEqual(['completed']);
    const answer = answerOf(run);
    expect(answer).toContain('`weather.get` ended **completed**');
    // The result's own backticks cannot close the block that quotes it.
    expect(answer).toContain('````\n{"city":"Paris","sky":"clear ```fenced``` sky","celsius":21}\n````');
  });

  it('goes through governance: an ask tool waits for approval bound to the exact arguments', async () => {
    const tool = weatherTool('ask');
    const run = startEngine('/call weather.get {"city":"Oslo"}', { tools: [tool] });
    const waiting = await run.until((s) => s.status === 'awaiting_input');
    expect(waiting.interrupts[0]?.argsDigest).toBe(sha256Digest({ city: 'Oslo' }));
    expect(tool.calls).toEqual([]);
    await run.decide('int_1', 'deny');
    await run.done;
    expect(tool.calls).toEqual([]);
    expect(answerOf(run)).toContain('`weather.get` ended **denied**');
  });

  it('reports a schema mismatch as the failed result the engine gave, without running the tool', async () => {
    const tool = weatherTool();
    const run = startEngine('/call weather.get {"town":"Paris"}', { tools: [tool] });
    await run.done;
    expect(tool.calls).toEqual([]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((r) => r.status)).toEqual(['failed']);
    expect(answerOf(run)).toContain("The arguments do not match the tool's schema");
  });

  it.each([
    [
      '/call nope.tool {}',
      'There is no tool named `nope.tool` here, so nothing was called. This run offers: `weather.get`.',
    ],
    ['/call weather.get {"city":', 'The arguments for `weather.get` are not valid JSON ('],
    [
      '/call weather.get ["Paris"]',
      'The arguments for `weather.get` must be a JSON object, like `{}`, so nothing was called.',
    ],
    ['/call', 'Write `/call <tool> <json-args>`, e.g. `/call weather.get {}`. This run offers: `weather.get`.'],
  ])('answers %s with what is wrong instead of calling anything', async (text, expected) => {
    const tool = weatherTool();
    const run = startEngine(text, { tools: [tool] });
    await run.done;
    expect(run.handle.snapshot().status).toBe('completed');
    expect(dataOf(run.events(), 'TOOL_CALL_START')).toEqual([]);
    expect(answerOf(run)).toContain(expected);
  });
});

describe('the scripted model names only the tools the run offers', () => {
  it('suggests no demo scenario when the product registered only its own tool, and offers /call for it', async () => {
    const run = startEngine('Hello', { tools: [weatherTool()] });
    await run.done;
    const answer = answerOf(run);
    for (const command of ['/tool', '/approval', '/propose', '/progress', '/loop'])
      expect(answer).not.toContain(`\`${command}`);
    expect(answer).toContain("`/call <tool> <json-args>` calls one of this run's tools: `weather.get`");
    expect(answer).toContain('`/echo <text>`');
  });

  it('suggests the demo scenarios when the demo tools are registered, and no /call line without tools', async () => {
    const demo = startEngine('Hello', { tools: createDemoTools() });
    await demo.done;
    for (const command of ['/tool', '/approval', '/propose', '/progress', '/loop'])
      expect(answerOf(demo)).toContain(`\`${command}`);

    const bare = startEngine('Hello', { tools: [] });
    await bare.done;
    expect(answerOf(bare)).not.toContain('/call');
    expect(answerOf(bare)).not.toContain('/tool');
  });

  it('answers a tool scenario whose tool is not registered instead of calling it', async () => {
    const run = startEngine('/approval', { tools: [weatherTool()] });
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_START')).toEqual([]);
    expect(answerOf(run)).toBe(
      '`/approval` needs the tool `drafts.list`, `drafts.delete`, which this server does not offer, so nothing was called. Try `/call <tool> <json-args>` with one of: `weather.get`.',
    );
  });
});

describe('the scripted model /code', () => {
  it('answers with a TypeScript block and a shell block, and the default answer suggests it', async () => {
    const run = startEngine('/code', { tools: [] });
    await run.done;
    expect(answerOf(run)).toBe(CODE_ANSWER);
    expect(CODE_ANSWER).toMatch(/^```ts\n[^`]*export function total\(/m);
    expect(CODE_ANSWER).toMatch(/^```sh\nnpx tsx total\.ts/m);
    const hello = startEngine('Hello', { tools: [] });
    await hello.done;
    expect(answerOf(hello)).toContain('`/code`');
  });
});
