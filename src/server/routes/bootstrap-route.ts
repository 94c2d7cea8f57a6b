import type { BootstrapResponse, Limits } from '../../core/protocol.ts';
import type { HandlerLimits } from '../limits/rate-limits.ts';
import { PROTOCOL_VERSION, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { DEFAULT_ATTACHMENT_LIMITS, DEFAULT_BROWSER_TOOL_LIMITS } from '../agent-handler-defaults.ts';
import { jsonResponse } from '../http/respond.ts';
import type { Route } from './route-context.ts';
import type { HandlerContext } from '../operations/operation-context.ts';

/**
 * `GET /bootstrap` (docs/protocol.md §5.1): versions, the caller's identity binding, agent, models,
 * limits (those of browser tools and of attachments only when they are on, docs/protocol.md §5.8, §19.6).
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
      limits: publishedLimits(context),
      stream: context.stream,
    };
    return jsonResponse(200, body, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** The limits, without those of browser tools and of attachments when they are off. */
function publishedLimits(context: HandlerContext): Limits {
  const published: Partial<HandlerLimits> = { ...context.limits };
  const withheld = [
    ...(context.browserTools === null ? Object.keys(DEFAULT_BROWSER_TOOL_LIMITS) : []),
    ...(context.attachments === null ? Object.keys(DEFAULT_ATTACHMENT_LIMITS) : []),
  ] as Array<keyof HandlerLimits>;
  for (const key of withheld) delete published[key];
  return published as Limits;
}
