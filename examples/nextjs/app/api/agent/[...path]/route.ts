// The agent API at /api/agent/*: every method the protocol uses, straight to the fetch handler.
import { agent } from '../../../../lib/agent';

// Answers are per user and streamed: never prerendered or cached.
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => agent(request);

export { handle as GET, handle as POST, handle as PATCH, handle as DELETE, handle as OPTIONS };
