import { ProblemError } from '../http/problem-error.ts';
import { getAttachmentRoute, uploadAttachmentRoute } from './attachment-routes.ts';
import { addInputRoute } from './add-input-route.ts';
import { bootstrapRoute } from './bootstrap-route.ts';
import { claimToolCallRoute } from './claim-tool-call-route.ts';
import { createRunRoute } from './create-run-route.ts';
import { feedbackRoute } from './feedback-route.ts';
import { reportExecutorRoute } from './executor-report-route.ts';
import {
  connectExecutorRoute,
  disconnectExecutorRoute,
  heartbeatExecutorRoute,
  pendingToolCallsRoute,
} from './executor-routes.ts';
import { resolveInterruptRoute } from './resolve-interrupt-route.ts';
import type { Route } from './route-context.ts';
import { cancelRunRoute, getRunRoute, runEventsRoute } from './run-routes.ts';
import { deleteSessionRoute, renameSessionRoute, showBranchRoute } from './session-change-routes.ts';
import { getSessionRoute, listSessionsRoute, sessionMessagesRoute } from './session-routes.ts';
import { toolReceiptRoute } from './tool-receipt-route.ts';
import { widgetActionRoute } from './widget-action-route.ts';

const ROUTES: readonly Route[] = [
  bootstrapRoute,
  createRunRoute,
  getRunRoute,
  runEventsRoute,
  cancelRunRoute,
  feedbackRoute,
  addInputRoute,
  resolveInterruptRoute,
  widgetActionRoute,
  listSessionsRoute,
  getSessionRoute,
  renameSessionRoute,
  deleteSessionRoute,
  showBranchRoute,
  sessionMessagesRoute,
  uploadAttachmentRoute,
  getAttachmentRoute,
  // Browser tools (docs/protocol.md §19).
  claimToolCallRoute,
  toolReceiptRoute,
  connectExecutorRoute,
  heartbeatExecutorRoute,
  disconnectExecutorRoute,
  pendingToolCallsRoute,
  reportExecutorRoute,
];

/**
 * Finds the route of `method` and `path` (relative to `{base}/v1`) among `routes` (default: the
 * protocol's) with its path parameters. Throws `405 METHOD_NOT_ALLOWED` (with `Allow`) when only
 * other methods match, else `404 NOT_FOUND`.
 */
export function matchRoute(
  method: string,
  path: string,
  routes: readonly Route[] = ROUTES,
): { route: Route; params: Record<string, string> } {
  const segments = path.split('/').filter((segment) => segment !== '');
  let allowed: string[] = [];
  for (const route of routes) {
    const params = matchTemplate(route.template, segments);
    if (params === null) continue;
    if (route.method === method) return { route, params };
    allowed = [...allowed, route.method];
  }
  if (allowed.length > 0) {
    throw new ProblemError({
      code: 'METHOD_NOT_ALLOWED',
      detail: `Use ${allowed.join(' or ')}.`,
      headers: { Allow: allowed.join(', ') },
    });
  }
  throw new ProblemError({ code: 'NOT_FOUND', detail: 'No such endpoint.' });
}

function matchTemplate(template: string, segments: readonly string[]): Record<string, string> | null {
  const parts = template.split('/').filter((part) => part !== '');
  if (parts.length !== segments.length || segments.length === 0) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    const segment = segments[i] as string;
    if (part.startsWith('{')) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(segment)) return null;
      params[part.slice(1, -1)] = segment;
    } else if (part !== segment) {
      return null;
    }
  }
  return params;
}
