// The agent API at /api/agent/*: every method the protocol uses, straight to the fetch handler.
import { agent } from '$lib/server/agent.js';

/**
 * The client's address feeds the per-client limits: adapter-node gives the socket's, or the
 * proxy's header named by ADDRESS_HEADER (with XFF_DEPTH) behind a proxy.
 * @type {import('./$types').RequestHandler}
 */
const handle = ({ request, getClientAddress }) => agent(request, { remoteAddress: getClientAddress() });

export { handle as GET, handle as POST, handle as PATCH, handle as DELETE, handle as OPTIONS };
