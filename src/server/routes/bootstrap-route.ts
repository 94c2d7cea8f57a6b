import type { BootstrapResponse, BrowserToolLimits, Limits } from '../../core/protocol.ts';
import { PROTOCOL_VERSION, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { DEFAULT_BROWSER_TOOL_LIMITS } from '../agent-handler-defaults.ts';
import { jsonResponse } from '../http/respond.ts';
import type { Route } from './route-context.ts';

/**
 * `GET /bootstrap` (docs/protocol.md §5.1): versions, the caller's identity binding, agent, models,
 * limits (those of browser tools only when they are on, docs/protocol.md §19.6).
 */
export const bootstrapRoute: Route = {
  method: 'GET',
  template: '/bootstrap',
  handle: async (request, context) => {
    const { agent } = context;
    const body: BootstrapResponse = {
      protocol: { version: PROTOCOL_VERSION, supported: ['1'] },
      identity: {
        identityId: request.identityId,
        ...(request.subject.displayName === undefined ? {} : { displayName: request.subject.displayName }),
      },
      agent: {
        agentId: agent.agentId,
        versionId: agent.versionId,
        name: agent.name,
        status: agent.status ?? 'active',
        ...(agent.avatarUrl === undefined ? {} : { avatarUrl: agent.avatarUrl }),
      },
      models: context.models,
      capabilities: context.capabilities,
      limits: context.browserTools === null ? withoutBrowserToolLimits(context.limits) : context.limits,
      stream: context.stream,
    };
    return jsonResponse(200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

function withoutBrowserToolLimits(limits: Limits & BrowserToolLimits): Limits {
  const published: Partial<Limits & BrowserToolLimits> = { ...limits };
  for (const key of Object.keys(DEFAULT_BROWSER_TOOL_LIMITS) as Array<keyof BrowserToolLimits>) delete published[key];
  return published as Limits;
}
