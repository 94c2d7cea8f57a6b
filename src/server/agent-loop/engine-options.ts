import type { OnWidgetAction } from '../widgets/widget-action.ts';
import type { TokenUsage, ToolEvidence } from '../../core/protocol.ts';
import type { McpServerConfig } from '../mcp/mcp-options.ts';
import type { McpToolSource } from '../mcp/mcp-tool-source.ts';
import type { ModelAdapter } from '../models/model-adapter.ts';
import type { BrowserSchemaCache } from '../tools/browser-tool-schemas.ts';
import type { BrowserToolSet } from '../tools/browser-tool-set.ts';
import type { RunHandle, Subject } from '../runs/run-handle.ts';
import type { ToolDefinition, ToolPolicy, ToolRegistry } from '../tools/tool-registry.ts';
import type { Clock, Sleep } from '../../core/clock.ts';
import type { ContextLayers } from './fit-context.ts';
import type { RunWriter } from './run-writer.ts';
import type { EngineTexts } from './engine-texts.ts';
import type { TokenCalibration } from './token-estimate.ts';

/** The agent loop's safeguards (docs/protocol.md §16), each ending the run with its own code. */
export interface EngineLimits {
  /** Model rounds per run (`MAX_ITERATIONS`). Default 8. */
  maxRounds: number;
  /** Deadline of one round: model attempts, backoff and tools, not approval waits (`MODEL_TIMEOUT`). Default 120 000. */
  roundTimeoutMs: number;
  /** Timeout of one model attempt; retried, then `MODEL_TIMEOUT`. Default 60 000. */
  attemptTimeoutMs: number;
  /** Retries of a retryable model error per round. Default 3. */
  maxRetries: number;
  /** Backoff base: retry n waits base·2ⁿ⁻¹ with jitter (or the provider's Retry-After). Default 500. */
  retryBaseMs: number;
  /**
   * Estimated tokens one model request may take (docs/agent-loop.md, "Context budget"): older
   * turns are left out to fit; only a run whose own messages do not fit ends `TOKEN_BUDGET_EXCEEDED`.
   * Default 60 000.
   */
  tokenBudget: number;
  /** The most of `tokenBudget` the page's focus context may take; cut past it, with a notice. Default 0.1. */
  focusShare: number;
  /** The most of `tokenBudget` the resolved attachments may take; cut past it, with a notice. Default 0.15. */
  attachmentsShare: number;
  /** Output tokens a model call is assumed to produce at most when the cost limit is checked. Default 4096. */
  projectedOutputTokens: number;
  /** Whole-run duration, approval waits included (`RUN_TIMEOUT`). Default 1 800 000. */
  runMaxDurationMs: number;
  /**
   * How long an approval stays open before it expires as a deny, for a run whose handle brings
   * none (under a handler its published `interruptDefaultTtlSec` decides). Default 900 000.
   */
  interruptTtlMs: number;
  /** Tool result characters kept; longer results are cut and flagged `truncated`. Default 16 000. */
  maxResultChars: number;
  /**
   * Minimum time between two text/reasoning delta events of one message. Default 8: half a frame
   * at 60 Hz, so a token waits at most that before it is sent and reaches the screen within two
   * frames; a model faster than 125 deltas a second is still coalesced.
   */
  deltaFlushMs: number;
  /** Buffered bytes that force a delta event. Default 512. */
  deltaFlushBytes: number;
  /** Minimum time between two progress events of one tool call (the final one always goes). Default 1000. */
  progressIntervalMs: number;
  /** How long a cancelled tool gets to confirm that it stopped before its result is `unknown`. Default 2000. */
  toolStopGraceMs: number;
  /**
   * How long a dispatched browser tool call may take, claim and handler included (its round
   * deadline is paused meanwhile): then it ends `expired` if it never started, else `unknown`.
   * Default 120 000.
   */
  browserToolTimeoutMs: number;
}

/** Context passed to hooks. */
export interface ToolHookContext {
  runId: string;
  sessionId: string;
  subject: Subject;
  round: number;
}

/** One tool call as hooks and `canExecuteTool` see it (arguments already validated). */
export interface ToolCallInfo {
  toolCallId: string;
  name: string;
  args: Record<string, unknown>;
  argsDigest: string;
  /** `browser` when the user's page runs it (docs/protocol.md §19); absent for server tools. */
  executorKind?: 'browser';
  /** Set when the user's Apply of a proposal started this call: the proposal's interrupt id (docs/agent-loop.md, "Proposals"). */
  proposalId?: string;
}

/** A pre-use hook's answer with the reason it gives (recorded as the call's evidence). */
export interface ToolHookDecision {
  policy: ToolPolicy;
  reason?: string;
}

/** What a tool call produced, as post-use hooks see it. */
export interface ToolCallOutcome {
  status: 'completed' | 'failed';
  content: string;
  truncated: boolean;
}

/** Product hooks around each tool call. */
export interface ToolHooks {
  /**
   * May tighten the policy (allow → ask → deny); a looser answer is ignored. Returning
   * `{policy, reason}` records the reason in the call's evidence.
   */
  preToolUse?(
    call: ToolCallInfo,
    context: ToolHookContext,
  ): ToolPolicy | ToolHookDecision | void | Promise<ToolPolicy | ToolHookDecision | void>;
  /** Sees every executed call's outcome; may return replacement content (e.g. redacted) and why. */
  postToolUse?(
    call: ToolCallInfo,
    outcome: ToolCallOutcome,
    context: ToolHookContext,
  ): { content: string; reason?: string } | void | Promise<{ content: string; reason?: string } | void>;
}

/** A server-side log line (provider text and stacks go here, never to the browser). */
export interface EngineLogEntry {
  level: 'warn' | 'error';
  message: string;
  runId: string;
  correlationId?: string;
  detail?: unknown;
}

/** What one agent version changes (docs/agent-loop.md, "Agent versions"); the rest comes from the engine's options. */
export interface AgentVersionConfig {
  productPrompt?: string;
  tools?: ToolDefinition[];
  model?: ModelAdapter;
}

/**
 * A model's price per million tokens, as decimal strings of US dollars (at most 12 decimals):
 * costs are computed in whole picodollars, never in floating point.
 */
export interface ModelPrice {
  inputPerMillionUsd: string;
  outputPerMillionUsd: string;
  /** The price of input tokens read from the provider's prompt cache (`cachedInputTokens`); `inputPerMillionUsd` when absent. */
  cachedInputPerMillionUsd?: string;
}

/** Options of `createRunEngine`; everything is optional. */
export interface RunEngineOptions {
  /** The model; the scripted one by default. */
  model?: ModelAdapter;
  /** The server tools the model is offered. Default none: the demo's (`createDemoTools`) only when passed. */
  tools?: ToolDefinition[];
  /** The kernel prompt: the assistant's own rules, first in every request. Default: the built-in rules. */
  kernelPrompt?: string;
  /** The former name of `kernelPrompt` (it replaced the one system prompt); `kernelPrompt` wins when both are set. */
  systemPrompt?: string;
  /** The product's prompt for this agent, after the kernel prompt. Default none. */
  productPrompt?: string;
  /**
   * Per agent version (keyed by `agv_…`): the prompt, tools and model of runs of sessions pinned
   * to it. A version not listed uses the options above.
   */
  versions?: Record<string, AgentVersionConfig>;
  /** Prices by model id (`model.id`); the scripted model costs nothing. A run with `maxCostUsd` on an unpriced model ends `COST_LIMIT_EXCEEDED` before its first call. */
  prices?: Record<string, ModelPrice>;
  /**
   * MCP servers whose tools are offered beside `tools` as `<server>.<tool>`, through the same
   * governance (docs/agent-loop.md, "MCP servers"); needs `@modelcontextprotocol/sdk`. Close
   * their connections with the engine's `close()`.
   */
  mcpServers?: McpServerConfig[];
  hooks?: ToolHooks;
  /**
   * Declarative widgets (docs/widgets.md): the origins a widget's images may come from (https;
   * publish the same list in the handler's `capabilities.widgets.imageOrigins`). Default none.
   */
  widgets?: { imageOrigins?: string[] };
  /**
   * The product's one hook for widget actions (docs/widgets.md, "Actions"): runs at the start of
   * the run that records an action; may update the widget, answer with a message, or let the
   * model answer (`startRun`). Without it a submitted form shows as submitted and nothing else happens.
   */
  onWidgetAction?: OnWidgetAction;
  /** The product's permission check; `false` (or a throw) denies the call. */
  canExecuteTool?(subject: Subject, call: ToolCallInfo): boolean | Promise<boolean>;
  /** Whether a user can approve `ask` calls; `false` fails every `ask` closed to deny. Default true. */
  approvals?: boolean;
  limits?: Partial<EngineLimits>;
  /** Whether reasoning deltas reach the log (bootstrap `reasoning.visible`). Default true. */
  showReasoning?: boolean;
  clock?: Clock;
  sleep?: Sleep;
  /** Mints ids: `ids('msg')` → `msg_…`. */
  ids?: (prefix: string) => string;
  /** 0 ≤ x < 1, for backoff jitter. */
  random?: () => number;
  log?: (entry: EngineLogEntry) => void;
  /**
   * The product's texts for more locales (or its own wording), by BCP 47 tag, laid over the
   * built-in English and Simplified Chinese: a run uses the entry of its user's locale.
   */
  texts?: Readonly<Record<string, Partial<EngineTexts>>>;
}

/** The defaults of every limit. */
export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxRounds: 8,
  roundTimeoutMs: 120_000,
  attemptTimeoutMs: 60_000,
  maxRetries: 3,
  retryBaseMs: 500,
  tokenBudget: 60_000,
  focusShare: 0.1,
  attachmentsShare: 0.15,
  projectedOutputTokens: 4096,
  runMaxDurationMs: 1_800_000,
  interruptTtlMs: 900_000,
  maxResultChars: 16_000,
  deltaFlushMs: 8,
  deltaFlushBytes: 512,
  progressIntervalMs: 1000,
  toolStopGraceMs: 2000,
  browserToolTimeoutMs: 120_000,
};

/** Resolved settings shared by the loop's parts. */
export interface EngineSettings {
  model: ModelAdapter;
  registry: ToolRegistry;
  /** The MCP servers' tools, added to `registry` per run; null without `mcpServers`. */
  mcp: McpToolSource | null;
  /** Compiled schemas of the browser tools runs declare, shared by the engine's runs. */
  browserSchemas: BrowserSchemaCache;
  hooks: ToolHooks;
  /** The origins widget images may come from. */
  widgetImageOrigins: readonly string[];
  onWidgetAction: OnWidgetAction | undefined;
  canExecuteTool: RunEngineOptions['canExecuteTool'];
  approvals: boolean;
  limits: EngineLimits;
  kernelPrompt: string;
  /** The product prompt of the run's agent version, if any. */
  productPrompt: string | null;
  /** Each listed version's model, tools and product prompt (the run's own are in `model`, `registry`, `productPrompt`). */
  versions: ReadonlyMap<string, Pick<EngineSettings, 'model' | 'registry' | 'productPrompt'>>;
  prices: ReadonlyMap<string, ModelPrice>;
  calibration: TokenCalibration;
  showReasoning: boolean;
  clock: Clock;
  sleep: Sleep;
  ids: (prefix: string) => string;
  random: () => number;
  log: (entry: EngineLogEntry) => void;
  texts: Readonly<Record<string, Partial<EngineTexts>>>;
}

/** One run's state shared by the loop's parts. */
export interface RunContext {
  settings: EngineSettings;
  handle: RunHandle;
  writer: RunWriter;
  /** The text the loop writes for the user, in the run's locale. */
  texts: EngineTexts;
  /** The browser tools this run declared and may call. */
  browserTools: BrowserToolSet;
  /** Aborts on cancel (reason: a cancel `LoopStop`) or when the run's duration runs out. */
  stopSignal: AbortSignal;
  usage: TokenUsage | null;
  /** The layers every model call of this run is built from (docs/agent-loop.md, "Prompt layers"). */
  layers: ContextLayers;
  /** Characters per token for this run's estimates; calibrated by each call's reported prompt tokens. */
  tokensPerChar: number;
  /** Governance evidence per tool call id, gathered until its `TOOL_CALL_RESULT` carries it. */
  evidence: Map<string, ToolEvidence[]>;
  /** Whether the user was told (`NOTICE{CONTEXT_TRUNCATED}`) that the page context or attachments were cut. */
  isCutNoticed: boolean;
}
