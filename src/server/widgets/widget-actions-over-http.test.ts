import { afterEach, describe, expect, it } from 'vitest';
import type { RunResource, SessionMessagesResponse, Widget } from '../../core/protocol.ts';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../core/protocol.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { createDemoWidgetTools, demoWidgetAction } from '../tools/demo-widgets.ts';
import type { WidgetAction } from './widget-action.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const NEW_ADDRESS = '1 Rose Street, Edinburgh EH2 2PR';

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

const widgetOf = (resource: RunResource): Widget | undefined =>
  resource.toolCalls.findLast((call) => call.result?.widget !== undefined)?.result?.widget;

/** A server on the demo's widget tool and hook (seen actions recorded), with alice's `/widget` run ended. */
async function startWidgetRun() {
  const actions: WidgetAction[] = [];
  const server = await startEngineServer({
    engine: {
      tools: [...createDemoTools({ stepMs: 1 }), ...createDemoWidgetTools()],
      onWidgetAction: (action, subject, context) => {
        actions.push(action);
        return demoWidgetAction(action, subject, context);
      },
    },
  });
  open.push(server);
  const { runId } = await server.createRun('alice', '/widget');
  await (
    await server.follow(runId)
  ).done;
  const widget = widgetOf(await server.resource(runId));
  if (widget === undefined) throw new Error('the run showed no widget');
  const path = `/runs/${runId}/widgets/${widget.widgetId}/actions`;
  return { server, runId, widget, path, actions };
}

describe('widget actions over HTTP', () => {
  it('records a form submit as a run whose widget shows the change and the form as submitted', async () => {
    const { server, widget, path, actions } = await startWidgetRun();
    const response = await server.request(path, {
      body: { action: 'change_address', digest: widget.digest, values: { address: NEW_ADDRESS, window: 'evening' } },
    });
    expect(response.status).toBe(201);
    const { runId } = (await json(response)) as { runId: string };
    await (
      await server.follow(runId)
    ).done;
    const resource = await server.resource(runId);
    expect(resource.status).toBe('completed');
    expect(resource.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Change address'],
      ['assistant', `The address of order A-1042 is now ${NEW_ADDRESS}.`],
    ]);
    const updated = widgetOf(resource);
    expect(updated?.widgetId).toBe(widget.widgetId);
    expect(updated?.digest).not.toBe(widget.digest);
    expect(JSON.stringify(updated?.root)).toContain(NEW_ADDRESS);
    expect(JSON.stringify(updated?.root)).toContain('"submitted":true');
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ action: 'change_address', values: { address: NEW_ADDRESS, window: 'evening' } });
  });

  it("keeps the widgets in the session's history: each call under the message that made it, as last shown", async () => {
    const { server, runId: shownIn, widget, path } = await startWidgetRun();
    const response = await server.request(path, {
      body: { action: 'change_address', digest: widget.digest, values: { address: NEW_ADDRESS } },
    });
    const { runId: actionRun } = (await json(response)) as { runId: string };
    await (
      await server.follow(actionRun)
    ).done;
    const { sessionId } = await server.resource(actionRun);
    const page = (await (await server.request(`/sessions/${sessionId}/messages`)).json()) as SessionMessagesResponse;
    const parentOf = (call: { parentMessageId?: string }) => {
      const parent = page.items.find((message) => message.messageId === call.parentMessageId);
      return [parent?.runId, parent?.role];
    };
    const widgetCalls = page.toolCalls.filter((call) => call.result?.widget !== undefined);
    expect(widgetCalls.map((call) => [call.runId, parentOf(call), call.result?.widget?.digest])).toEqual([
      [shownIn, [shownIn, 'assistant'], widget.digest],
      [actionRun, [actionRun, 'user'], widgetOf(await server.resource(actionRun))?.digest],
    ]);
    expect(JSON.stringify(widgetCalls[1]?.result?.widget?.root)).toContain(NEW_ADDRESS);

    // A page holds only the calls its own messages made.
    const newest = (await (
      await server.request(`/sessions/${sessionId}/messages?limit=2`)
    ).json()) as SessionMessagesResponse;
    expect(newest.toolCalls.map((call) => call.runId)).toEqual([actionRun]);
    const stranger = await server.request(`/sessions/${sessionId}/messages`, { user: 'bob' });
    expect(stranger.status).toBe(404);
  });

  it('applies a double click or a retry once, and refuses another answer to the widget that moved on (412)', async () => {
    const { server, widget, path, actions } = await startWidgetRun();
    const body = { action: 'track', digest: widget.digest };
    const [first, second] = await Promise.all([server.request(path, { body }), server.request(path, { body })]);
    const statuses = [first.status, second.status].sort();
    // Both clicks race for the one key: one applies, the other is a replay or told the first still runs.
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    const retry = await server.request(path, { body });
    expect(retry.status).toBe(201);
    expect(retry.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true');
    const applied = (await json(first.status === 201 ? first : second)) as { runId: string };
    expect(((await json(retry)) as { runId: string }).runId).toBe(applied.runId);
    await (
      await server.follow(applied.runId)
    ).done;
    expect(actions).toHaveLength(1);

    const other = await server.request(path, {
      body: { action: 'change_address', digest: widget.digest, values: { address: NEW_ADDRESS } },
    });
    expect([other.status, (await json(other)).code]).toEqual([412, 'WIDGET_DIGEST_MISMATCH']);
    expect(actions).toHaveLength(1);
  });

  it('refuses a tampered digest (412) and another user’s run or an unknown widget (404), changing nothing', async () => {
    const { server, runId, widget, path, actions } = await startWidgetRun();
    const tampered = await server.request(path, { body: { action: 'track', digest: 'sha256:not-what-was-shown' } });
    expect([tampered.status, (await json(tampered)).code]).toEqual([412, 'WIDGET_DIGEST_MISMATCH']);
    const stranger = await server.request(path, { user: 'bob', body: { action: 'track', digest: widget.digest } });
    expect([stranger.status, (await json(stranger)).code]).toEqual([404, 'WIDGET_NOT_FOUND']);
    const unknown = await server.request(`/runs/${runId}/widgets/order-9999/actions`, {
      body: { action: 'track', digest: widget.digest },
    });
    expect([unknown.status, (await json(unknown)).code]).toEqual([404, 'WIDGET_NOT_FOUND']);
    expect(actions).toHaveLength(0);
  });

  it('refuses an action the widget does not offer and values off its form (422)', async () => {
    const { server, widget, path, actions } = await startWidgetRun();
    const cases = [
      { action: 'refund', digest: widget.digest },
      { action: 'change_address', digest: widget.digest, values: { address: '' } },
      { action: 'change_address', digest: widget.digest, values: { address: 'x', window: 'midnight' } },
      { action: 'change_address', digest: widget.digest, values: { address: 'x', admin: true } },
      { action: 'track', digest: widget.digest, values: { address: 'x' } },
      { action: '<script>', digest: widget.digest },
    ];
    for (const body of cases) {
      const response = await server.request(path, { body });
      expect([response.status, (await json(response)).code]).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect(actions).toHaveLength(0);
    // A refused request held no key: the valid action still applies.
    const valid = await server.request(path, { body: { action: 'track', digest: widget.digest } });
    expect(valid.status).toBe(201);
  });

  it('moves the digest even when an action leaves the tree as it is, so the next action applies', async () => {
    const { server, widget, path, actions } = await startWidgetRun();
    const tracked = await server.request(path, { body: { action: 'track', digest: widget.digest } });
    const { runId } = (await json(tracked)) as { runId: string };
    await (
      await server.follow(runId)
    ).done;
    const after = widgetOf(await server.resource(runId));
    expect(after?.root).toEqual(widget.root);
    expect([after?.revision, after?.digest === widget.digest]).toEqual([1, false]);
    const submitted = await server.request(path, {
      body: { action: 'change_address', digest: after?.digest, values: { address: NEW_ADDRESS } },
    });
    expect(submitted.status).toBe(201);
    await (
      await server.follow(((await json(submitted)) as { runId: string }).runId)
    ).done;
    expect(actions.map((action) => action.action)).toEqual(['track', 'change_address']);
  });

  it('takes the next action on the updated widget only, by its new digest', async () => {
    const { server, widget, path } = await startWidgetRun();
    const submitted = await server.request(path, {
      body: { action: 'change_address', digest: widget.digest, values: { address: NEW_ADDRESS } },
    });
    const { runId } = (await json(submitted)) as { runId: string };
    await (
      await server.follow(runId)
    ).done;
    const updated = widgetOf(await server.resource(runId));
    const again = await server.request(path, {
      body: { action: 'change_address', digest: updated?.digest, values: { address: 'Elsewhere' } },
    });
    // The form was submitted: its action is no longer offered.
    expect([again.status, (await json(again)).code]).toEqual([422, 'VALIDATION_FAILED']);
    const track = await server.request(path, { body: { action: 'track', digest: updated?.digest } });
    expect(track.status).toBe(201);
  });
});
