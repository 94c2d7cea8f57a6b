import type { BrowserToolEntry } from '../tools/browser-tool-set.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import type { RunContext } from './engine-options.ts';

/** The tool `name` of this run: a server tool, or a browser tool the run declared. */
export function findTool(context: RunContext, name: string): ToolDefinition | BrowserToolEntry | undefined {
  return context.settings.registry.get(name) ?? context.browserTools.get(name);
}

/**
 * Why a call to `name` with `args` cannot run (an unknown tool, arguments off its schema, a
 * proposal-only tool the model called itself), if it cannot.
 */
export function findCallProblem(
  context: RunContext,
  name: string,
  args: unknown,
  origin: { isProposalWrite: boolean } = { isProposalWrite: false },
): string | undefined {
  const tool = findTool(context, name);
  if (tool === undefined) return `There is no tool named "${name}".`;
  if (!origin.isProposalWrite && !isBrowserTool(tool) && tool.isProposalOnly === true)
    return 'This tool runs only when the user applies a proposal, so it was not run.';
  const validator = isBrowserTool(tool) ? context.browserTools : context.settings.registry;
  const errors = validator.validateArguments(name, args);
  return errors.length > 0
    ? `The arguments do not match the tool's schema, so it was not run: ${errors.join('; ')}.`
    : undefined;
}

/** Whether `tool` is a browser tool of this run (the page runs it), not a server tool. */
export function isBrowserTool(tool: ToolDefinition | BrowserToolEntry | undefined): tool is BrowserToolEntry {
  return tool !== undefined && 'executorKind' in tool;
}
