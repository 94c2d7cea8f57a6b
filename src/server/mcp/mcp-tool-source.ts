import type { ToolDefinition, ToolRegistry } from '../tools/tool-registry.ts';
import { createToolRegistry } from '../tools/tool-registry.ts';
import { createJsonSchemaCompiler } from '../tools/validate-json-schema.ts';
import type { McpConnection } from './mcp-connection.ts';
import { connectMcpServer } from './mcp-connection.ts';
import type { McpServerConfig } from './mcp-options.ts';
import { MCP_DEFAULTS } from './mcp-options.ts';
import { toMcpToolDefinition } from './mcp-tool-definitions.ts';

/** The tools of the engine's MCP servers, as runs take them. */
export interface McpToolSource {
  /**
   * The registry a run starting now uses: `base` plus every connected server's current tools
   * (`<server>.<tool>`). The run keeps it, whatever the servers list later. Waits for servers
   * still making their first connection attempt, at most twice their `connectTimeoutMs`.
   */
  registryFor(base: ToolRegistry): Promise<ToolRegistry>;
  /** Closes every connection (and stops the stdio children). */
  close(): Promise<void>;
}

/**
 * Connects to each listed MCP server (`connectMcpServer`) and builds run registries from their
 * tool lists, once per list change (a generation counter) and base registry. A tool whose schema
 * Ajv cannot compile is left out with a log line instead of failing every run.
 */
export function createMcpToolSource(
  servers: readonly McpServerConfig[],
  log: (message: string, detail?: unknown) => void,
): McpToolSource {
  let generation = 0;
  const connections: McpConnection[] = servers.map((config) =>
    connectMcpServer(config, {
      onToolsChanged: () => {
        generation += 1;
      },
      log,
    }),
  );
  const cache = new WeakMap<ToolRegistry, { generation: number; registry: ToolRegistry }>();
  const compiler = createJsonSchemaCompiler();

  const listTools = (): ToolDefinition[] =>
    connections.flatMap((connection) =>
      connection.tools().flatMap((tool) => {
        const definition = toMcpToolDefinition(connection, tool);
        try {
          compiler.compile(definition.parameters);
          return [definition];
        } catch (error) {
          log(`MCP tool "${definition.name}" is left out: its inputSchema does not compile`, error);
          return [];
        }
      }),
    );

  return {
    async registryFor(base) {
      const waitMs = 2 * Math.max(...servers.map((s) => s.connectTimeoutMs ?? MCP_DEFAULTS.connectTimeoutMs));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(connections.map((connection) => connection.firstAttempt)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitMs);
        }),
      ]);
      clearTimeout(timer);
      const cached = cache.get(base);
      if (cached?.generation === generation) return cached.registry;
      const current = generation;
      try {
        const registry = createToolRegistry([...base.list(), ...listTools()]);
        cache.set(base, { generation: current, registry });
        return registry;
      } catch (error) {
        log('MCP tools are left out of this run: they could not be registered', error);
        return base;
      }
    },
    async close() {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
