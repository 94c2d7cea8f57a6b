import type { BrowserTool } from './tool-runner-types.ts';

const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Throws a `TypeError` that names the tool and what to fix when a handler is not a browser tool
 * (`{ description, parameters, run, title?, policy? }` under a name of `[A-Za-z0-9_.-]{1,64}`),
 * so a mistake shows when the runner is attached, not as a call the server refuses later.
 */
export function checkHandlers(handlers: unknown): asserts handlers is Record<string, BrowserTool> {
  if (typeof handlers !== 'object' || handlers === null || Array.isArray(handlers))
    throw new TypeError('tools must be an object of browser tools keyed by name.');
  for (const [name, value] of Object.entries(handlers)) {
    const tool: Partial<Record<keyof BrowserTool, unknown>> = typeof value === 'object' && value !== null ? value : {};
    const problem = !TOOL_NAME_PATTERN.test(name)
      ? 'its name must be 1–64 letters, digits, "_", "." or "-"'
      : typeof tool.description !== 'string' || tool.description.trim() === ''
        ? 'it needs a description'
        : typeof tool.parameters !== 'object' || tool.parameters === null
          ? 'it needs parameters (a JSON Schema object)'
          : typeof tool.run !== 'function'
            ? 'it needs a run(args, context) function'
            : tool.policy !== undefined && tool.policy !== 'allow' && tool.policy !== 'ask'
              ? 'its policy must be "allow" or "ask"'
              : null;
    if (problem !== null) throw new TypeError(`Browser tool "${name}": ${problem}.`);
  }
}
