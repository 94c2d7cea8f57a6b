import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isMissingPackage, missingPeerError } from '../optional-peer.ts';
import { unrefTimer } from '../unref-timer.ts';
import type { McpServerConfig } from './mcp-options.ts';
import { MCP_DEFAULTS } from './mcp-options.ts';

/** The optional peer dependency the connections speak MCP with. */
const MCP_SDK = '@modelcontextprotocol/sdk';

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean };
}

/** How one call may be told about progress and stopped. */
export interface McpCallOptions {
  signal: AbortSignal;
  onProgress(progress: number, total: number | undefined, message: string | undefined): void;
}

/** Why a call did not produce a result. */
export type McpCallFailure =
  /** Nothing was sent: the server is not connected. */
  | { kind: 'unreachable'; detail: string }
  /** Sent, then no answer in time or the connection broke: the work may have happened. */
  | { kind: 'unknown'; detail: string }
  /** The run stopped it (cancellation was sent). */
  | { kind: 'aborted' };

/** One MCP server kept connected: its current tool list and its calls. */
export interface McpConnection {
  readonly config: McpServerConfig;
  /** The tools it listed last (empty until it first connects; kept while it reconnects). */
  tools(): readonly McpListedTool[];
  /** Resolves once the first connection attempt has ended, either way. */
  readonly firstAttempt: Promise<void>;
  call(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<{ ok: true; result: Record<string, unknown> } | { ok: false; failure: McpCallFailure }>;
  close(): Promise<void>;
}

/** Options of {@link connectMcpServer}. */
export interface McpConnectionOptions {
  /** Told when the tool list changed (after a `notifications/tools/list_changed` or a reconnect). */
  onToolsChanged(): void;
  log(message: string, detail?: unknown): void;
  /** Backoff of reconnects: attempt n waits base·2ⁿ⁻¹, at most 30 s. Default 500. */
  reconnectBaseMs?: number;
}

const MAX_RECONNECT_MS = 30_000;
/** MCP's JSON-RPC error codes the SDK raises for a broken connection and a request timeout. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * Connects to one MCP server with `@modelcontextprotocol/sdk` (loaded here, only when a product
 * lists MCP servers): a child process over stdio, or Streamable HTTP. Lists its tools (all pages)
 * and lists them again on `notifications/tools/list_changed`. When the connection closes or a
 * call finds it broken, it reconnects with exponential backoff (timers unref'd, so it never keeps
 * the process alive), and meanwhile calls fail as unreachable. Never throws from a callback.
 */
export function connectMcpServer(config: McpServerConfig, options: McpConnectionOptions): McpConnection {
  const reconnectBaseMs = options.reconnectBaseMs ?? 500;
  const connectTimeoutMs = config.connectTimeoutMs ?? MCP_DEFAULTS.connectTimeoutMs;
  let client: Client | null = null;
  let listed: readonly McpListedTool[] = [];
  let isClosed = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let settleFirst: () => void = () => undefined;
  const firstAttempt = new Promise<void>((resolve) => {
    settleFirst = resolve;
  });

  const refreshTools = async (current: Client): Promise<void> => {
    const tools: McpListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await current.listTools(cursor === undefined ? {} : { cursor }, { timeout: connectTimeoutMs });
      tools.push(...(page.tools as McpListedTool[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    if (client !== current) return;
    listed = tools;
    options.onToolsChanged();
  };

  const scheduleReconnect = (): void => {
    if (isClosed || retryTimer !== undefined) return;
    failures += 1;
    const waitMs = Math.min(MAX_RECONNECT_MS, reconnectBaseMs * 2 ** (failures - 1));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, waitMs);
    unrefTimer(retryTimer);
  };

  const dropClient = (current: Client, reason: string): void => {
    if (client !== current) return;
    client = null;
    options.log(`MCP server "${config.name}" disconnected: ${reason}; reconnecting`);
    void current.close().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = async (): Promise<void> => {
    if (isClosed) return;
    try {
      const sdk = await loadSdk();
      const next = new sdk.Client({ name: 'agent-chat', version: '1' }, { capabilities: {} });
      const transport =
        'command' in config
          ? new sdk.StdioClientTransport({
              command: config.command,
              args: [...(config.args ?? [])],
              ...(config.env === undefined ? {} : { env: { ...config.env } }),
              stderr: 'ignore',
            })
          : new sdk.StreamableHTTPClientTransport(new URL(config.url), {
              requestInit: { headers: { ...config.headers } },
            });
      next.onclose = () => dropClient(next, 'the connection closed');
      next.onerror = (error) => options.log(`MCP server "${config.name}" transport error`, error);
      next.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
        void refreshTools(next).catch((error: unknown) => {
          options.log(`MCP server "${config.name}" could not list its changed tools`, error);
        });
      });
      await next.connect(transport, { timeout: connectTimeoutMs });
      if (isClosed) {
        await next.close();
        return;
      }
      client = next;
      await refreshTools(next);
      failures = 0;
    } catch (error) {
      options.log(`MCP server "${config.name}" could not be reached`, error);
      const current = client;
      if (current !== null) dropClient(current, 'listing its tools failed');
      else scheduleReconnect();
    } finally {
      settleFirst();
    }
  };

  void connect();

  return {
    config,
    tools: () => listed,
    firstAttempt,
    async call(name, args, callOptions) {
      const current = client;
      if (current === null) return { ok: false, failure: { kind: 'unreachable', detail: 'not connected' } };
      try {
        const result = await current.callTool({ name, arguments: args }, undefined, {
          signal: callOptions.signal,
          timeout: config.callTimeoutMs ?? MCP_DEFAULTS.callTimeoutMs,
          onprogress: (progress) => callOptions.onProgress(progress.progress, progress.total, progress.message),
        });
        return { ok: true, result: result as Record<string, unknown> };
      } catch (error) {
        if (callOptions.signal.aborted) return { ok: false, failure: { kind: 'aborted' } };
        const code = (error as { code?: unknown }).code;
        if (code === REQUEST_TIMEOUT) return { ok: false, failure: { kind: 'unknown', detail: 'timed out' } };
        if (code === CONNECTION_CLOSED) {
          dropClient(current, 'the connection closed during a call');
          return { ok: false, failure: { kind: 'unknown', detail: 'the connection closed during the call' } };
        }
        if (typeof code === 'number') throw error;
        // Not an answer of the server (fetch failed, the pipe broke): nothing reached it.
        dropClient(current, error instanceof Error ? error.message : String(error));
        return { ok: false, failure: { kind: 'unreachable', detail: String(error) } };
      }
    },
    async close() {
      isClosed = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.close().catch(() => undefined);
    },
  };
}

/**
 * The MCP SDK parts the connection needs, loaded on first use (an optional peer dependency). The
 * ignore comments keep bundlers from resolving it at build time, as `requireOptionalPeer` does.
 */
async function loadSdk() {
  const [clientModule, stdio, http, types] = await Promise.all([
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@modelcontextprotocol/sdk/client/index.js'),
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@modelcontextprotocol/sdk/client/stdio.js'),
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@modelcontextprotocol/sdk/types.js'),
  ]).catch((error: unknown) => {
    throw isMissingPackage(error, MCP_SDK) ? missingPeerError(MCP_SDK, 'mcpServers', error) : error;
  });
  return {
    Client: clientModule.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}
