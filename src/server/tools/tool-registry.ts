import type { WidgetNode } from '../../core/protocol.ts';
import type { ToolSpec } from '../models/model-adapter.ts';
import { createJsonSchemaCompiler, type JsonSchemaValidator } from './validate-json-schema.ts';
import type { Subject } from '../runs/run-handle.ts';

/** How a tool may run: at once, after the user approves, or never. */
export type ToolPolicy = 'allow' | 'ask' | 'deny';

/** What a running tool gets besides its arguments. */
export interface ToolRunContext {
  /** Aborted on cancel or deadline. A tool that stops because of it throws `ToolStoppedError`. */
  signal: AbortSignal;
  /** Reports progress; `fraction` is 0..1. The loop coalesces these (≤ 1 event per second). */
  progress(message?: string, fraction?: number): void;
  /** Who the run belongs to: a tool's data is this subject's (the demo's drafts are per user). */
  subject: Subject;
  /**
   * Updates a widget this run showed, in place, while the run goes on (docs/widgets.md, "Updating a
   * widget"): the new tree gets the same checks as a shown one. Resolves false, changing nothing,
   * when the run shows no widget `widgetId`, has ended, or the tree fails a check (logged).
   */
  updateWidget(widget: { widgetId: string; root: WidgetNode }): Promise<boolean>;
}

/** A server tool the model may call. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** A short human title for the tool card and the approval question (never the internal name). */
  title?: string;
  /**
   * The title per locale (BCP 47 keys, e.g. `{ 'zh-CN': '查询订单' }`): a run whose user reads
   * one of them (the widget's `Accept-Language`) gets it, matched by tag then by language; else `title`.
   */
  titles?: Readonly<Record<string, string>>;
  /** JSON Schema of the arguments, enforced with Ajv (draft-07, `ajv-formats`) before every call. */
  parameters: Record<string, unknown>;
  policy: ToolPolicy;
  /**
   * Whether the call destroys or changes something that cannot be undone (a delete, a payment): its
   * approval carries `metadata.destructive: true` and the widget marks Allow as dangerous.
   */
  destructive?: boolean;
  /** What the approval of a call says to the end user beside its arguments (`policy: 'ask'`, docs/protocol.md §11). */
  approval?: ToolApprovalTexts;
  /**
   * Whether it runs only when the user applies a proposal naming it (docs/agent-loop.md,
   * "Proposals"): it is left out of the model's tool list, and a call the model makes itself fails unrun.
   */
  isProposalOnly?: boolean;
  /**
   * Runs the tool. Strings go to the model as they are, anything else as JSON; `endRun(…)` ends
   * the run, `propose(…)` asks the user to apply a write instead of making it.
   */
  run(args: Record<string, unknown>, context: ToolRunContext): Promise<unknown>;
}

/**
 * What a call's approval says to the end user: the question about this call and what allowing it
 * does. Both are the product's text, shown as plain text (never HTML) above the arguments.
 */
export interface ToolApprovalTexts {
  /**
   * The question for one call, in the user's words and locale (`Delete the draft "Q3 plan"?`): the
   * interrupt's `message` and `metadata.summary`, the card's heading. `args` are the model's (valid
   * against the schema, but hostile, and a copy: changing them changes nothing). Returning nothing
   * or a blank, throwing, or taking longer than {@link APPROVAL_SUMMARY_TIMEOUT_MS} leaves the
   * default question; past {@link MAX_APPROVAL_TEXT_CHARS} it is cut with `…`.
   */
  summary?(
    args: Record<string, unknown>,
    context: ToolApprovalContext,
  ): string | undefined | Promise<string | undefined>;
  /** What allowing a call does, in plain words ("This can't be undone."): the interrupt's `metadata.consequence`. */
  consequence?: string;
  /** The consequence per locale (BCP 47 keys), matched like `titles`; else `consequence`. */
  consequences?: Readonly<Record<string, string>>;
}

/** What a tool's approval `summary` gets besides the arguments. */
export interface ToolApprovalContext {
  /** Who the run belongs to (a summary may look up this subject's data, e.g. a draft's title). */
  subject: Subject;
  /** The locale the user reads (the create's `Accept-Language`), when known. */
  locale: string | undefined;
}

/** How long a tool's approval `summary` may take before the default question is asked instead. */
export const APPROVAL_SUMMARY_TIMEOUT_MS = 2_000;

/** The longest approval summary or consequence, in characters (a longer one is cut). */
export const MAX_APPROVAL_TEXT_CHARS = 200;

/**
 * Thrown by a tool to fail with a message that is safe to show the user and the model. Any other
 * thrown error is reported as a generic failure (its text stays on the server).
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Thrown by a tool to confirm that it stopped after its signal aborted, so nothing was left half done. */
export class ToolStoppedError extends Error {
  constructor(message = 'The tool stopped before finishing.') {
    super(message);
    this.name = 'ToolStoppedError';
  }
}

/**
 * Thrown by a tool whose work may or may not have happened (it timed out, or its server went away
 * mid-call): the call ends `unknown` with this message, and the run goes on.
 */
export class ToolOutcomeUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolOutcomeUnknownError';
  }
}

/** A lookup of tools by name. */
export interface ToolRegistry {
  get(name: string): ToolDefinition | undefined;
  list(): readonly ToolDefinition[];
  /** The specs the model gets, in registration order (not the tools that run only through a proposal). */
  specs(): ToolSpec[];
  /** Checks arguments against the named tool's schema: the problems found, empty when valid (or no such tool). */
  validateArguments(name: string, args: unknown): string[];
}

/**
 * Creates a registry over `tools`, compiling each tool's parameter schema once. Throws when two
 * tools share a name, or when a schema is invalid or uses a keyword or format the validator does
 * not know (the message names the tool).
 */
export function createToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  const validators = new Map<string, JsonSchemaValidator>();
  const compiler = createJsonSchemaCompiler();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
    try {
      validators.set(tool.name, compiler.compile(tool.parameters));
    } catch (error) {
      throw new Error(
        `Tool "${tool.name}" has an invalid parameters schema: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  const list = [...byName.values()];
  return {
    get: (name) => byName.get(name),
    validateArguments: (name, args) => validators.get(name)?.(args) ?? [],
    list: () => list,
    specs: () =>
      list
        .filter((tool) => tool.isProposalOnly !== true)
        .map(({ name, description, parameters }) => ({ name, description, parameters })),
  };
}
