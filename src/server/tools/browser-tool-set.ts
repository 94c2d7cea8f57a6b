import type { BrowserToolDeclaration } from '../../core/protocol.ts';
import type { ToolSpec } from '../models/model-adapter.ts';
import type { BrowserSchemaCache } from './browser-tool-schemas.ts';
import type { JsonSchemaValidator } from './validate-json-schema.ts';
import type { ToolPolicy } from './tool-registry.ts';

/** A browser tool of one run, as the loop governs it: like a server tool, but the page runs it. */
export interface BrowserToolEntry {
  executorKind: 'browser';
  name: string;
  description: string;
  title?: string;
  parameters: Record<string, unknown>;
  /** The page's declared policy (`ask` when it named none); hooks may only tighten it. */
  policy: ToolPolicy;
}

/** The browser tools one run may call. */
export interface BrowserToolSet {
  get(name: string): BrowserToolEntry | undefined;
  /** The specs the model gets after the server's own, in declaration order. */
  specs(): ToolSpec[];
  /** The problems of `args` against the tool's schema (empty when valid or no such tool). */
  validateArguments(name: string, args: unknown): string[];
}

/** A declaration the run cannot use, and why (shown as a `NOTICE`). */
export interface IgnoredBrowserTool {
  name: string;
  reason: string;
}

/**
 * Builds a run's browser tools from its declarations (already checked by the create route).
 * A declaration whose name a server tool has, or that repeats an earlier one, or whose schema
 * does not compile, is left out and listed in `ignored`: the server's own tool always wins.
 */
export function createBrowserToolSet(
  declarations: readonly BrowserToolDeclaration[],
  options: { schemas: BrowserSchemaCache; isServerTool: (name: string) => boolean },
): { tools: BrowserToolSet; ignored: IgnoredBrowserTool[] } {
  const byName = new Map<string, { entry: BrowserToolEntry; validate: JsonSchemaValidator }>();
  const ignored: IgnoredBrowserTool[] = [];
  for (const declaration of declarations) {
    const { name } = declaration;
    if (options.isServerTool(name) || byName.has(name)) {
      ignored.push({ name, reason: 'another tool has this name' });
      continue;
    }
    let validate: JsonSchemaValidator;
    try {
      validate = options.schemas.compile(declaration.parameters);
    } catch {
      ignored.push({ name, reason: 'its parameters schema does not compile' });
      continue;
    }
    const entry: BrowserToolEntry = {
      executorKind: 'browser',
      name,
      description: declaration.description,
      parameters: declaration.parameters,
      policy: declaration.policy ?? 'ask',
      ...(declaration.title === undefined ? {} : { title: declaration.title }),
    };
    byName.set(name, { entry, validate });
  }
  const list = [...byName.values()];
  return {
    tools: {
      get: (name) => byName.get(name)?.entry,
      specs: () =>
        list.map(({ entry }) => ({ name: entry.name, description: entry.description, parameters: entry.parameters })),
      validateArguments: (name, args) => byName.get(name)?.validate(args) ?? [],
    },
    ignored,
  };
}
