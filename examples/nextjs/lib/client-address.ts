/**
 * The client's address for the per-client limits (docs/server.md, "Next.js"). A route handler
 * sees no socket, so it is the last `x-forwarded-for` entry: the one the proxy in front wrote. On
 * Vercel the platform sets the header itself; self-hosted, put `next start` behind a proxy that
 * appends to it (nginx: `$proxy_add_x_forwarded_for`), since `next start` alone keeps a header
 * the client sent and fills it in from the socket only when there is none.
 */
export function clientAddress(request: Request): string | undefined {
  return request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
}
