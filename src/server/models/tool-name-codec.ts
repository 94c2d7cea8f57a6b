import type { ModelRequest } from './model-adapter.ts';

/** Maps the loop's tool names to names a provider accepts and back. */
export interface ToolNameCodec {
  encode(name: string): string;
  decode(name: string): string;
}

/**
 * Builds the codec of one request: providers allow `[a-zA-Z0-9_-]{1,64}` tool names (Chat
 * Completions, Anthropic, the Responses API), ours may contain dots (`orders.lookup`, MCP's
 * `server.tool`). Each name of the request's tools and earlier tool calls gets a distinct encoded
 * name; a name the codec never saw passes through unchanged.
 */
export function createToolNameCodec(request: ModelRequest): ToolNameCodec {
  const toProvider = new Map<string, string>();
  const fromProvider = new Map<string, string>();
  const names = [
    ...request.tools.map((tool) => tool.name),
    ...request.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : [])),
  ];
  for (const name of names) {
    if (toProvider.has(name)) continue;
    let encoded = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
    while (fromProvider.has(encoded)) encoded = `${encoded.slice(0, 60)}_${fromProvider.size}`;
    toProvider.set(name, encoded);
    fromProvider.set(encoded, name);
  }
  return { encode: (name) => toProvider.get(name) ?? name, decode: (name) => fromProvider.get(name) ?? name };
}
