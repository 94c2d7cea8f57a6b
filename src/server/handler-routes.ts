import { AG_UI_PATH, agUiRoute } from './ag-ui/ag-ui-route.ts';
import { matchRoute } from './routes/match-route.ts';
import type { Route } from './routes/route-context.ts';

/**
 * Finds the route of `method` and `path` (relative to `{basePath}`): the protocol's routes under
 * `/v1/`, and the AG-UI endpoint at {@link AG_UI_PATH}. Throws like {@link matchRoute}.
 */
export function matchHandlerRoute(method: string, path: string): { route: Route; params: Record<string, string> } {
  if (path === AG_UI_PATH) return matchRoute(method, path, [agUiRoute]);
  return matchRoute(method, path.startsWith('/v1/') ? path.slice(3) : '');
}

/** The route's template under `{basePath}` (`/v1/runs/{runId}/events`), `unmatched` for anything else. */
export function routeNameOf(method: string, path: string): string {
  try {
    const { route } = matchHandlerRoute(method, path);
    return path.startsWith('/v1/') ? `/v1${route.template}` : route.template;
  } catch {
    return 'unmatched';
  }
}
