import type { ToolDefinition, ToolPolicy } from '../tools/tool-registry.ts';
import { ToolError, ToolOutcomeUnknownError } from '../tools/tool-registry.ts';
import type { McpConnection, McpListedTool } from './mcp-connection.ts';
import type { McpPolicyOverride } from './mcp-options.ts';
import { readMcpResultContent } from './mcp-result-content.ts';

const POLICIES: readonly ToolPolicy[] = ['allow', 'ask', 'deny'];

/** Whether the tool's annotations call it destructive: `destructiveHint: true` wins over `readOnlyHint`. */
function saysDestructive(tool: McpListedTool): boolean {
  return tool.annotations?.destructiveHint === true;
}

/**
 * The policy the server entry sets for this tool (for all its tools, or this one by its own name),
 * if any. A per-tool map is read by own keys only, so a tool named `constructor` or `toString` does
 * not pick up an `Object.prototype` member as its policy; a value that is no policy denies.
 */
function productPolicyOf(tool: McpListedTool, override: McpPolicyOverride | undefined): ToolPolicy | undefined {
  if (typeof override === 'string') return override;
  if (override === undefined || !Object.hasOwn(override, tool.name)) return undefined;
  const policy = override[tool.name];
  return POLICIES.find((known) => known === policy) ?? 'deny';
}

/**
 * The policy of an MCP tool. Its annotations are the server's word, so they may only tighten the
 * product's: a policy the server entry sets (for all its tools, or this one by name) stays, except
 * that a tool saying `destructiveHint: true` is never `allow`ed without asking. Without an entry
 * policy: `readOnlyHint: true` → `allow` unless it also says `destructiveHint: true` (destructive
 * wins); anything else (destructive, or nothing said) → `ask`.
 */
export function mcpToolPolicy(tool: McpListedTool, override: McpPolicyOverride | undefined): ToolPolicy {
  const isDestructive = saysDestructive(tool);
  const product = productPolicyOf(tool, override);
  if (product !== undefined) return isDestructive && product === 'allow' ? 'ask' : product;
  return tool.annotations?.readOnlyHint === true && !isDestructive ? 'allow' : 'ask';
}

/**
 * Makes one listed MCP tool a product tool named `<server>.<tool>`, governed like any other: its
 * `inputSchema` is its parameters (without `$schema`, validated by the engine's draft-07 Ajv),
 * `destructive` when it says so, else unless it says it is read-only or not destructive (MCP's
 * default), and `run`
 * calls it over the connection with the run's signal (a stop sends MCP cancellation; the result
 * is then `unknown`), forwarding progress. A server error result fails the call with its text; a
 * timeout or a connection lost mid-call ends it `unknown`; an unreachable server fails it unrun.
 */
export function toMcpToolDefinition(connection: McpConnection, tool: McpListedTool): ToolDefinition {
  const { name: serverName, policy } = connection.config;
  const { $schema: _ignored, ...parameters } = tool.inputSchema;
  const isReadOnly = tool.annotations?.readOnlyHint === true;
  const title = tool.title ?? tool.annotations?.title;
  return {
    name: `${serverName}.${tool.name}`,
    description: tool.description ?? '',
    ...(title === undefined ? {} : { title }),
    parameters: { type: 'object', ...parameters },
    policy: mcpToolPolicy(tool, policy),
    destructive: saysDestructive(tool) || (!isReadOnly && tool.annotations?.destructiveHint !== false),
    async run(args, context) {
      const outcome = await connection.call(tool.name, args, {
        signal: context.signal,
        onProgress: (progress, total, message) =>
          context.progress(message, total === undefined || total <= 0 ? undefined : progress / total),
      });
      if (outcome.ok) {
        const text = readMcpResultContent(outcome.result);
        if (outcome.result['isError'] === true) throw new ToolError(text || `The MCP tool ${tool.name} failed.`);
        return text;
      }
      const { failure } = outcome;
      if (failure.kind === 'unreachable')
        throw new ToolError(`The MCP server "${serverName}" is not reachable right now, so the tool was not run.`);
      if (failure.kind === 'unknown')
        throw new ToolOutcomeUnknownError(
          `The MCP server "${serverName}" gave no answer (${failure.detail}); whether the tool ran is unknown.`,
        );
      throw new ToolOutcomeUnknownError('The call was stopped; the MCP server was asked to cancel it.');
    },
  };
}
