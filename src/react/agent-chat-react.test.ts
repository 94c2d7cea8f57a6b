import { createElement, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { MountOptions } from '../mount-options.ts';
import type { AgentChatEventMap, AgentChatEventName } from '../ui/agent-chat/agent-chat-events.ts';
import type { AgentChatElement } from '../ui/agent-chat/agent-chat.ts';
import { FakeAgentClient } from '../ui/test-support/fake-agent-client.ts';
import { AGENT_CHAT_EVENT_PROPS, AgentChat, type AgentChatProps } from './index.ts';

type EventProps = typeof AGENT_CHAT_EVENT_PROPS;

/** The mount options a React page does without (docs/embedding.md, "React"): the launcher and page tools. */
type MountOnly = 'mode' | 'startOpen' | 'position' | 'tools' | 'toolRunner';

// Type-level: every event has its callback prop, typed with the event's detail.
expectTypeOf<Exclude<AgentChatEventName, EventProps[keyof EventProps]>>().toEqualTypeOf<never>();
expectTypeOf<{
  [Prop in keyof EventProps]: NonNullable<AgentChatProps[Prop]> extends (
    event: AgentChatEventMap[EventProps[Prop]],
  ) => void
    ? true
    : false;
}>().toEqualTypeOf<{ [Prop in keyof EventProps]: true }>();
// Every mount option but the launcher's and the page tools' is a prop of the same name that takes its values.
expectTypeOf<Exclude<keyof MountOptions, keyof AgentChatProps | MountOnly>>().toEqualTypeOf<never>();
expectTypeOf<{
  [Key in Exclude<keyof MountOptions, MountOnly>]: MountOptions[Key] extends AgentChatProps[Key & keyof AgentChatProps]
    ? true
    : false;
}>().toEqualTypeOf<{ [Key in Exclude<keyof MountOptions, MountOnly>]: true }>();
// `title` is the header's title, as the mount option; `headerTitle` is not a second name for it.
expectTypeOf<AgentChatProps['title']>().toEqualTypeOf<string | undefined>();
expectTypeOf<AgentChatProps>().not.toHaveProperty('headerTitle');
// @ts-expect-error onRunFinish receives the run-finish event, not the send event
const wrongEvent: AgentChatProps = { onRunFinish: (event: AgentChatEventMap['agent-chat-send']) => event.detail.text };
void wrongEvent;

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  root?.unmount();
  container?.remove();
  root = undefined;
  container = undefined;
  vi.unstubAllGlobals();
});

/** Renders `props` into a fresh container; resolves with the `<agent-chat>` once it rendered. */
async function render(props: AgentChatProps): Promise<AgentChatElement> {
  container ??= document.body.appendChild(document.createElement('div'));
  root ??= createRoot(container);
  root.render(createElement(AgentChat, { locale: 'en', theme: 'light', ...props }));
  const element = await vi.waitFor(() => {
    const found = container?.querySelector('agent-chat');
    if (!found) throw new Error('not rendered yet');
    return found;
  });
  await element.updateComplete;
  return element;
}

describe('agent-chat/react', () => {
  it('sets the header title from `title`, not a tooltip', async () => {
    const element = await render({ client: new FakeAgentClient(), title: 'My product assistant' });
    await vi.waitFor(() =>
      expect(element.shadowRoot?.querySelector('[part="header"] h2')?.textContent?.trim()).toBe('My product assistant'),
    );
    expect(element.hasAttribute('title')).toBe(false);
    expect(element.headerTitle).toBe('My product assistant');
  });

  it('calls the typed callback of each of the 13 events with the event', async () => {
    const received: Array<[string, unknown]> = [];
    const callbacks = Object.fromEntries(
      Object.entries(AGENT_CHAT_EVENT_PROPS).map(([prop]) => [
        prop,
        (event: CustomEvent) => received.push([prop, event.detail]),
      ]),
    );
    const ref = createRef<AgentChatElement>();
    const element = await render({ client: new FakeAgentClient(), ref, ...callbacks });
    expect(ref.current).toBe(element);
    for (const [prop, name] of Object.entries(AGENT_CHAT_EVENT_PROPS)) {
      element.dispatchEvent(new CustomEvent(name, { detail: { from: prop } }));
    }
    expect(Object.keys(AGENT_CHAT_EVENT_PROPS)).toHaveLength(13);
    expect(received).toEqual(Object.keys(AGENT_CHAT_EVENT_PROPS).map((prop) => [prop, { from: prop }]));
  });

  it('owns a client for `endpoint` with the mount options, and a new one when the endpoint changes', async () => {
    const requests: Array<[string, RequestInit | undefined]> = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      requests.push([String(url), init]);
      return Promise.resolve(new Response('{}', { status: 503, headers: { 'Content-Type': 'application/json' } }));
    });
    const props: AgentChatProps = {
      endpoint: '/api/one',
      credentials: 'include',
      headers: () => ({ 'X-Product': 'yes' }),
    };
    const element = await render(props);
    await vi.waitFor(() => expect(requests.length).toBeGreaterThan(0));
    const [url, init] = requests[0] ?? ['', undefined];
    expect(url).toMatch(/^\/api\/one\/v1\/bootstrap/);
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('X-Product')).toBe('yes');
    const first = element.client;
    expect(first).toBeDefined();

    await render({ ...props, endpoint: '/api/two' });
    await vi.waitFor(() => expect(requests.some(([next]) => next.startsWith('/api/two/v1/bootstrap'))).toBe(true));
    expect(element.client).not.toBe(first);

    // A client of the page's own wins over the props that would create one.
    const own = new FakeAgentClient();
    await render({ ...props, client: own });
    await vi.waitFor(() => expect(element.client).toBe(own));
  });
});
