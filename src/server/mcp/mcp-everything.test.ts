import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest } from '../json/canonical-json.ts';
import { dataOf } from '../agent-loop/test-support/run-engine-harness.ts';
import type { McpEngineRuns } from './test-support/mcp-engine-runs.ts';
import { createMcpEngineRuns } from './test-support/mcp-engine-runs.ts';

/** The published reference server of the MCP project, run as a child process over stdio. */
const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const everything = (extra: object = {}) => ({
  name: 'everything',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  ...extra,
});

const resultsOf = (run: { events(): Parameters<typeof dataOf>[0] }) => dataOf(run.events(), 'TOOL_CALL_RESULT');
const answerOf = (run: { handle: { snapshot(): { messages: { content: string }[] } } }) =>
  run.handle.snapshot().messages.at(-1)?.content ?? '';

describe('MCP tools of @modelcontextprotocol/server-everything over stdio', () => {
  let engine: McpEngineRuns;
  beforeAll(() => {
    engine = createMcpEngineRuns({ mcpServers: [everything()] });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('offers its tools as everything.<tool> and runs echo (readOnlyHint → allow) at once', async () => {
    const run = engine.start('/call everything.echo {"message":"hello over MCP"}');
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_START').map((s) => [s.toolCallName, s.title])).toEqual([
      ['everything.echo', 'Echo Tool'],
    ]);
    expect(dataOf(run.events(), 'INTERRUPT_REQUESTED')).toEqual([]);
    expect(resultsOf(run).map((r) => [r.status, r.content])).toEqual([['completed', 'Echo: hello over MCP']]);
  });

  it('validates the arguments with the tool inputSchema before anything reaches the server', async () => {
    const good = engine.start('/call everything.get-sum {"a":2,"b":3}');
    await good.done;
    expect(resultsOf(good).map((r) => [r.status, r.content])).toEqual([['completed', 'The sum of 2 and 3 is 5.']]);
    const bad = engine.start('/call everything.get-sum {"a":"two"}');
    await bad.done;
    const [result] = resultsOf(bad);
    expect([result?.status, result?.content.startsWith("The arguments do not match the tool's schema")]).toEqual([
      'failed',
      true,
    ]);
  });

  it('turns the long-running tool’s progress notifications into TOOL_CALL_PROGRESS', async () => {
    const run = engine.start('/call everything.trigger-long-running-operation {"duration":0.3,"steps":3}');
    await run.done;
    const progress = dataOf(run.events(), 'TOOL_CALL_PROGRESS');
    expect(progress.length > 0).toBe(true);
    expect(progress.every((p) => p.fraction !== undefined && p.fraction > 0 && p.fraction <= 1)).toBe(true);
    expect(resultsOf(run).map((r) => r.status)).toEqual(['completed']);
  });

  it('asks before a tool whose annotations do not say read-only, bound to the exact arguments', async () => {
    const run = engine.start('/call everything.toggle-simulated-logging {}');
    const waiting = await run.until((s) => s.status === 'awaiting_input');
    expect(waiting.interrupts[0]?.argsDigest).toBe(sha256Digest({}));
    await run.decide(waiting.interrupts[0]?.id ?? '', 'allow');
    await run.done;
    expect(resultsOf(run).map((r) => r.status)).toEqual(['completed']);
    expect(resultsOf(run)[0]?.content).toMatch(/logging/i);
  });

  it('shows an image result as a note of its type and size, never its bytes', async () => {
    const run = engine.start('/call everything.get-tiny-image {}');
    await run.done;
    const content = resultsOf(run)[0]?.content ?? '';
    expect(content).toMatch(/^Here's the image you requested:\n\n\[image image\/png, \d+ bytes, not shown\]/);
    expect(content).not.toContain('iVBOR');
  });
});

describe('MCP server entries: overrides and servers that fail', () => {
  it('lets the server entry override a tool’s policy', async () => {
    const engine = createMcpEngineRuns({ mcpServers: [everything({ policy: { echo: 'deny' } })] });
    try {
      const run = engine.start('/call everything.echo {"message":"no"}');
      await run.done;
      expect(resultsOf(run).map((r) => r.status)).toEqual(['denied']);
    } finally {
      await engine.close();
    }
  });

  it('keeps running without the tools of a server that exits at once, and says why in the log', async () => {
    const engine = createMcpEngineRuns({
      mcpServers: [
        { name: 'broken', command: process.execPath, args: ['-e', 'process.exit(3)'], connectTimeoutMs: 2000 },
      ],
    });
    try {
      const run = engine.start('/call broken.anything {}');
      await run.done;
      expect(run.handle.snapshot().status).toBe('completed');
      expect(answerOf(run)).toContain('There is no tool named `broken.anything` here');
      expect(engine.logs.some((entry) => entry.message.startsWith('MCP server "broken"'))).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('refuses two servers of one name and a product tool inside a server namespace', () => {
    expect(() => createMcpEngineRuns({ mcpServers: [everything(), everything()] })).toThrow(
      'Two MCP servers are named "everything".',
    );
    const tool = {
      name: 'everything.echo',
      description: '',
      parameters: {},
      policy: 'allow' as const,
      run: () => Promise.resolve(1),
    };
    expect(() => createMcpEngineRuns({ mcpServers: [everything()], tools: [tool] })).toThrow(
      'The tool "everything.echo" is inside the namespace of MCP server "everything".',
    );
  });
});
