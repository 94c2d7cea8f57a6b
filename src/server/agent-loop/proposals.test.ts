import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import type { ModelChunk } from '../models/model-adapter.ts';
import { createDemoProfiles } from '../tools/demo-profiles.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { propose } from '../tools/tool-outcomes.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import type { ToolCallInfo } from './engine-options.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, foldTypes, settle, startEngine } from './test-support/run-engine-harness.ts';

const isAwaiting = (s: { status: string }): boolean => s.status === 'awaiting_input';
const NEW_PROFILE = { displayName: 'Ada Lovelace', bio: 'Tea drinker.\nWrites about agents.' };
const SUBJECT = 'usr_1';

/** The engine on `/propose` with the demo tools over profiles the test can read. */
function startProposal(options: Parameters<typeof startEngine>[1] = {}) {
  const profiles = createDemoProfiles();
  const run = startEngine('/propose', { tools: createDemoTools({ stepMs: 0, profiles }), ...options });
  return { run, profiles };
}

/** A model that calls `name` with `argumentsText` once, then stops. */
function modelCalling(name: string, argumentsText: string) {
  return createListModel([
    [
      { type: 'tool_call', id: 'call_1', name, arguments: argumentsText },
      { type: 'finish', reason: 'tool_calls' },
    ],
    [{ type: 'finish', reason: 'stop' }],
  ]);
}

describe('proposals', () => {
  it('offers the preview as an interrupt whose digest is the write’s arguments, and changes nothing yet', async () => {
    const { run, profiles } = startProposal();
    const waiting = await run.until(isAwaiting);
    expect(waiting.interrupts).toEqual([
      {
        id: 'int_1',
        reason: 'proposal',
        toolCallId: 'tc_1',
        argsDigest: sha256Digest(NEW_PROFILE),
        message: 'Update your profile with the new display name and bio?',
        expiresAt: new Date(run.clock.now() + 900_000).toISOString(),
        proposal: {
          summary: 'Update your profile with the new display name and bio?',
          fields: [{ name: 'Display name', before: 'Demo user', after: 'Ada Lovelace' }],
          diff: [
            { change: 'removed', text: 'Coffee drinker.' },
            { change: 'added', text: 'Tea drinker.' },
            { change: 'unchanged', text: 'Writes about agents.' },
          ],
          apply: { tool: 'profile.update', arguments: NEW_PROFILE },
        },
        state: 'open',
        runId: 'run_1',
        seq: run.events().find((event) => event.type === 'INTERRUPT_REQUESTED')?.seq,
      },
    ]);
    expect(dataOf(run.events(), 'RUN_STATUS_CHANGED').at(-1)).toEqual({ status: 'awaiting_input', reason: 'proposal' });
    expect(waiting.toolCalls.map((c) => [c.name, c.status])).toEqual([['profile.propose', 'awaiting_approval']]);
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
  });

  it('Apply runs the write through the governed path with exactly the stored arguments, then the model answers', async () => {
    const seen: ToolCallInfo[] = [];
    const model = createListModel([
      [
        { type: 'text', delta: 'I propose a change.' },
        { type: 'tool_call', id: 'call_p', name: 'profile.propose', arguments: JSON.stringify(NEW_PROFILE) },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [
        { type: 'text', delta: 'Done.' },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    const { run, profiles } = startProposal({
      model,
      hooks: {
        preToolUse: (call) => {
          seen.push(call);
          return call.proposalId === undefined ? undefined : { policy: 'allow', reason: 'Applied by the user.' };
        },
      },
      canExecuteTool: () => true,
    });
    await run.until(isAwaiting);
    await run.decide('int_1', 'allow');
    await run.done;
    expect(seen.map((call) => [call.name, call.args, call.argsDigest, call.proposalId])).toEqual([
      ['profile.propose', NEW_PROFILE, sha256Digest(NEW_PROFILE), undefined],
      ['profile.update', NEW_PROFILE, sha256Digest(NEW_PROFILE), 'int_1'],
    ]);
    expect(foldTypes(run.events()).slice(-17)).toEqual([
      'INTERRUPT_REQUESTED',
      'RUN_STATUS_CHANGED',
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_START',
      'TOOL_CALL_END',
      'CUSTOM',
      'CUSTOM',
      'TOOL_CALL_RESULT',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT*',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_START')).toEqual([
      {
        toolCallId: 'tc_1',
        toolCallName: 'profile.propose',
        parentMessageId: 'msg_1',
        title: 'Propose a profile change',
      },
      {
        toolCallId: 'tc_2',
        toolCallName: 'profile.update',
        parentMessageId: 'msg_1',
        title: 'Update the profile',
        proposalId: 'int_1',
      },
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_END')[1]).toEqual({
      toolCallId: 'tc_2',
      args: NEW_PROFILE,
      argsDigest: sha256Digest(NEW_PROFILE),
    });
    const written = JSON.stringify({ updated: true, profile: NEW_PROFILE });
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status, d.content])).toEqual([
      ['tc_2', 'completed', written],
      ['tc_1', 'completed', `The user applied the proposal: profile.update returned ${written}`],
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT')[0]?.evidence).toEqual([
      { source: 'pre_tool_use', decision: 'allow', reason: 'Applied by the user.' },
      { source: 'can_execute', decision: 'allow' },
    ]);
    expect(profiles.read(SUBJECT)).toEqual(NEW_PROFILE);
    // The model sees its own call and its result, like any tool result; the write is no call of its own.
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: 'I propose a change.',
        toolCalls: [{ id: 'call_p', name: 'profile.propose', arguments: JSON.stringify(NEW_PROFILE) }],
      },
      {
        role: 'tool',
        toolCallId: 'call_p',
        content: `The user applied the proposal: profile.update returned ${written}`,
        status: 'completed',
      },
    ]);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).not.toContain('profile.update');
  });

  it('Dismiss changes nothing and tells the model; the scripted model answers accordingly', async () => {
    const { run, profiles } = startProposal();
    await run.until(isAwaiting);
    await run.decide('int_1', 'deny');
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_START').map((d) => d.toolCallName)).toEqual(['profile.propose']);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['denied', 'The user dismissed the proposal, so nothing was changed.'],
    ]);
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe(
      'Understood: your profile stays as it was. (The user dismissed the proposal, so nothing was changed.)',
    );
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
  });

  it('a proposal nobody answers expires as dismissed when its TTL runs out', async () => {
    const { run, profiles } = startProposal({ limits: { interruptTtlMs: 60_000 } });
    await run.until(isAwaiting);
    await settle();
    run.clock.advance(60_000);
    await run.done;
    expect(run.handle.snapshot().interrupts.map((i) => [i.state, i.decision, i.resolvedBy])).toEqual([
      ['expired', 'deny', 'timeout'],
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['denied', 'Nobody answered the proposal in time, so nothing was changed.'],
    ]);
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
  });

  it('a cancel while the proposal waits closes it cancelled and writes nothing', async () => {
    const { run, profiles } = startProposal();
    await run.until(isAwaiting);
    await run.cancel('user stop');
    await run.done;
    expect(run.handle.snapshot().interrupts.map((i) => [i.reason, i.state])).toEqual([['proposal', 'cancelled']]);
    expect(run.handle.snapshot().toolCalls.map((c) => [c.name, c.status])).toEqual([['profile.propose', 'cancelled']]);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((d) => d.outcome.type)).toEqual(['cancelled']);
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
  });

  it('a write whose policy asks waits for its own approval of the exact arguments, then runs', async () => {
    const { run, profiles } = startProposal({
      hooks: { preToolUse: (call) => (call.name === 'profile.update' ? 'ask' : undefined) },
    });
    await run.until(isAwaiting);
    await run.decide('int_1', 'allow');
    const approval = await run.until((s) => s.interrupts.some((i) => i.id === 'int_2' && i.state === 'open'));
    expect(approval.interrupts[1]).toMatchObject({
      reason: 'tool_call',
      toolCallId: 'tc_2',
      argsDigest: sha256Digest(NEW_PROFILE),
    });
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
    await run.decide('int_2', 'allow');
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status])).toEqual([
      ['tc_2', 'completed'],
      ['tc_1', 'completed'],
    ]);
    expect(profiles.read(SUBJECT)).toEqual(NEW_PROFILE);
  });

  it('an applied write that a policy denies fails the proposal with the reason, unrun', async () => {
    const { run, profiles } = startProposal({ canExecuteTool: (_subject, call) => call.name !== 'profile.update' });
    await run.until(isAwaiting);
    await run.decide('int_1', 'allow');
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status, d.content])).toEqual([
      ['tc_2', 'denied', 'You are not permitted to run this tool, so it was not run.'],
      [
        'tc_1',
        'denied',
        'The user applied the proposal, but profile.update ended denied: You are not permitted to run this tool, so it was not run.',
      ],
    ]);
    expect(profiles.read(SUBJECT).displayName).toBe('Demo user');
  });

  it('refuses a proposal-only write the model calls itself, and a proposal that could not be applied', async () => {
    const direct = startEngine('Update it', {
      model: modelCalling('profile.update', JSON.stringify(NEW_PROFILE)),
    });
    await direct.done;
    expect(dataOf(direct.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['failed', 'This tool runs only when the user applies a proposal, so it was not run.'],
    ]);

    const badProposer: ToolDefinition = {
      name: 'notes.propose',
      description: 'Proposes a note.',
      parameters: { type: 'object' },
      policy: 'allow',
      run: async () =>
        propose({ summary: 'Add a note?', apply: { tool: 'orders.lookup', arguments: { orderId: 'x' } } }),
    };
    const bad = startEngine('Note it', {
      tools: [...createDemoTools({ stepMs: 0 }), badProposer],
      model: modelCalling('notes.propose', '{}'),
    });
    await bad.done;
    expect(dataOf(bad.events(), 'INTERRUPT_REQUESTED')).toEqual([]);
    expect(dataOf(bad.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      [
        'failed',
        'The proposal cannot be applied. The arguments do not match the tool\'s schema, so it was not run: $.orderId must match pattern "^A-[0-9]+$".',
      ],
    ]);
  });
});

describe('a malformed proposal', () => {
  it('fails the proposing call without offering anything (a tool in JavaScript may break the shape)', async () => {
    const fields: unknown = [{ name: 'Bio', after: 42 }];
    const broken: ToolDefinition = {
      name: 'bio.propose',
      description: 'Proposes a bio.',
      parameters: { type: 'object' },
      policy: 'allow',
      run: async () =>
        propose({
          summary: 'Change the bio?',
          fields: fields as [],
          apply: { tool: 'profile.update', arguments: NEW_PROFILE },
        }),
    };
    const run = startEngine('Bio', {
      tools: [...createDemoTools({ stepMs: 0 }), broken],
      model: modelCalling('bio.propose', '{}'),
    });
    await run.done;
    expect(dataOf(run.events(), 'INTERRUPT_REQUESTED')).toEqual([]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['failed', 'The tool returned a malformed proposal (its summary, fields, diff or write), so it was not offered.'],
    ]);
  });
});

describe('proposals across a restart', () => {
  const TURNS: ModelChunk[][] = [
    [
      { type: 'tool_call', id: 'call_p', name: 'profile.propose', arguments: JSON.stringify(NEW_PROFILE) },
      { type: 'finish', reason: 'tool_calls' },
    ],
    [
      { type: 'text', delta: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ],
  ];

  function resumeOn(log: readonly EventEnvelope[], profiles: ReturnType<typeof createDemoProfiles>) {
    let count = 0;
    return startEngine('/propose', {
      model: createListModel([TURNS[1] ?? []]),
      tools: createDemoTools({ stepMs: 0, profiles }),
      resumeLog: log,
      startAt: 1_800_000_060_000,
      ids: (prefix) => `${prefix}_r${(count += 1)}`,
    });
  }

  it('waits for the open proposal again without running the proposing tool twice, and applies once', async () => {
    const profiles = createDemoProfiles();
    let proposed = 0;
    const tools = createDemoTools({ stepMs: 0, profiles }).map((tool) =>
      tool.name === 'profile.propose'
        ? {
            ...tool,
            run: (args: Record<string, unknown>, context: Parameters<ToolDefinition['run']>[1]) => (
              (proposed += 1),
              tool.run(args, context)
            ),
          }
        : tool,
    );
    const first = startEngine('/propose', { model: createListModel(TURNS), tools });
    await first.until(isAwaiting);
    const run = resumeOn(first.events(), profiles);
    await run.until(isAwaiting);
    await run.decide('int_1', 'allow');
    await run.done;
    expect(proposed).toBe(1);
    expect(dataOf(run.events(), 'INTERRUPT_REQUESTED')).toHaveLength(1);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status])).toEqual([
      ['tc_r1', 'completed'],
      ['tc_1', 'completed'],
    ]);
    expect(profiles.read(SUBJECT)).toEqual(NEW_PROFILE);
  });

  it('reports a write that had already run before the restart instead of running it again', async () => {
    let writes = 0;
    const profiles = createDemoProfiles();
    const counting = {
      read: profiles.read,
      write: (subjectId: string, profile: typeof NEW_PROFILE) => {
        writes += 1;
        profiles.write(subjectId, profile);
      },
    };
    const first = startEngine('/propose', {
      model: createListModel(TURNS),
      tools: createDemoTools({ stepMs: 0, profiles: counting }),
    });
    await first.until(isAwaiting);
    await first.decide('int_1', 'allow');
    await first.done;
    // The process died after the write's result, before the proposing call's.
    const events = first.events();
    const cut = events.findIndex(
      (event) => event.type === 'TOOL_CALL_RESULT' && 'toolCallId' in event.data && event.data.toolCallId === 'tc_1',
    );
    const run = resumeOn(events.slice(0, cut), counting);
    await run.done;
    expect(writes).toBe(1);
    expect(dataOf(run.events(), 'TOOL_CALL_START').map((d) => d.toolCallId)).toEqual(['tc_1', 'tc_2']);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status])).toEqual([
      ['tc_2', 'completed'],
      ['tc_1', 'completed'],
    ]);
  });
});
