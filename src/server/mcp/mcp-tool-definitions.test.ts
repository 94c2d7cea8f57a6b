import { describe, expect, it } from 'vitest';
import type { McpConnection, McpListedTool } from './mcp-connection.ts';
import type { McpPolicyOverride } from './mcp-options.ts';
import { mcpToolPolicy, toMcpToolDefinition } from './mcp-tool-definitions.ts';

const toolSaying = (annotations?: McpListedTool['annotations'], name = 'act'): McpListedTool => ({
  name,
  inputSchema: { type: 'object' },
  ...(annotations === undefined ? {} : { annotations }),
});

/** A connection that is never called: the definition is built from its config alone. */
const connectionWith = (policy?: McpPolicyOverride): McpConnection => ({
  config: { name: 'srv', url: 'http://127.0.0.1:1/mcp', ...(policy === undefined ? {} : { policy }) },
  tools: () => [],
  firstAttempt: Promise.resolve(),
  call: () => Promise.reject(new Error('not called')),
  close: () => Promise.resolve(),
});

describe('mcpToolPolicy: the hints of an MCP tool only tighten', () => {
  const both = toolSaying({ readOnlyHint: true, destructiveHint: true });
  const readOnly = toolSaying({ readOnlyHint: true });
  const destructive = toolSaying({ destructiveHint: true });

  it('asks before a tool that says both read-only and destructive: destructive wins', () => {
    expect(mcpToolPolicy(both, undefined)).toBe('ask');
    expect(mcpToolPolicy(both, 'allow')).toBe('ask');
    expect(mcpToolPolicy(both, { act: 'allow' })).toBe('ask');
    expect(mcpToolPolicy(both, 'deny')).toBe('deny');
    const definition = toMcpToolDefinition(connectionWith(), both);
    expect([definition.policy, definition.destructive]).toEqual(['ask', true]);
  });

  it('allows a read-only tool only where the product set no policy; its ask or deny stays', () => {
    expect(mcpToolPolicy(readOnly, undefined)).toBe('allow');
    expect(mcpToolPolicy(readOnly, 'ask')).toBe('ask');
    expect(mcpToolPolicy(readOnly, 'deny')).toBe('deny');
    expect(mcpToolPolicy(readOnly, { act: 'ask' })).toBe('ask');
    expect(mcpToolPolicy(readOnly, { act: 'deny' })).toBe('deny');
    expect(mcpToolPolicy(readOnly, { other: 'deny' })).toBe('allow');
    const definition = toMcpToolDefinition(connectionWith({ act: 'deny' }), readOnly);
    expect([definition.policy, definition.destructive]).toEqual(['deny', false]);
  });

  it('asks before a destructive tool, and never lets the product’s allow skip the question', () => {
    expect(mcpToolPolicy(destructive, undefined)).toBe('ask');
    expect(mcpToolPolicy(destructive, 'allow')).toBe('ask');
    expect(mcpToolPolicy(destructive, { act: 'deny' })).toBe('deny');
    expect(toMcpToolDefinition(connectionWith(), destructive).destructive).toBe(true);
  });

  it('keeps the product’s allow for a tool that says nothing, and asks without it', () => {
    expect(mcpToolPolicy(toolSaying(), undefined)).toBe('ask');
    expect(mcpToolPolicy(toolSaying(), 'allow')).toBe('allow');
    expect(mcpToolPolicy(toolSaying({ destructiveHint: false }), undefined)).toBe('ask');
  });

  it('reads a per-tool map by its own keys: a tool named after an Object member gets no policy from it', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(mcpToolPolicy(toolSaying(undefined, name), { echo: 'deny' })).toBe('ask');
      expect(mcpToolPolicy(toolSaying({ readOnlyHint: true }, name), { echo: 'deny' })).toBe('allow');
    }
  });
});
