import type { ToolPolicy } from '../tools/tool-registry.ts';

/**
 * A server's policy override: one policy for every tool of the server, or per tool (its MCP name);
 * a tool not named keeps the policy of its annotations.
 */
export type McpPolicyOverride = ToolPolicy | Readonly<Record<string, ToolPolicy>>;

/** What every MCP server entry may set. */
interface McpServerCommon {
  /**
   * The namespace of its tools (`<name>.<tool>`): letters, digits, `_` and `-`, unique among the
   * servers and not the first segment of a product tool's name.
   */
  name: string;
  policy?: McpPolicyOverride;
  /** How long one tool call may take before it ends `unknown` (and MCP cancellation is sent). Default 60 000. */
  callTimeoutMs?: number;
  /** How long connecting (the MCP `initialize` handshake) may take before it is retried. Default 10 000. */
  connectTimeoutMs?: number;
}

/** An MCP server the engine starts as a child process and talks to over stdio. */
export interface McpStdioServer extends McpServerCommon {
  command: string;
  args?: readonly string[];
  /** The child's environment (default: the MCP SDK's safe subset of this process's). */
  env?: Readonly<Record<string, string>>;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServer extends McpServerCommon {
  url: string;
  headers?: Readonly<Record<string, string>>;
}

/** One entry of `createRunEngine({ mcpServers })`. */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** The defaults of an MCP server entry's timeouts. */
export const MCP_DEFAULTS = { callTimeoutMs: 60_000, connectTimeoutMs: 10_000 } as const;

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Checks the engine's MCP server list against itself and the product's tool names: a valid unique
 * namespace per server, a command or a URL, and no product tool inside a server's namespace (it
 * would shadow that server's tools, or they it). Throws a `RangeError` naming the entry.
 */
export function checkMcpServers(servers: readonly McpServerConfig[], productToolNames: readonly string[]): void {
  const seen = new Set<string>();
  for (const server of servers) {
    if (!SERVER_NAME.test(server.name))
      throw new RangeError(`MCP server name "${server.name}" must be 1–64 letters, digits, "_" or "-".`);
    if (seen.has(server.name)) throw new RangeError(`Two MCP servers are named "${server.name}".`);
    seen.add(server.name);
    const hasCommand = 'command' in server && typeof server.command === 'string' && server.command !== '';
    const hasUrl = 'url' in server && typeof server.url === 'string' && URL.canParse(server.url);
    if (hasCommand === hasUrl)
      throw new RangeError(`MCP server "${server.name}" needs either a command (stdio) or an http(s) url.`);
    const clash = productToolNames.find((name) => name.startsWith(`${server.name}.`));
    if (clash !== undefined)
      throw new RangeError(`The tool "${clash}" is inside the namespace of MCP server "${server.name}".`);
  }
}
