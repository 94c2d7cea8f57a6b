import type { ProposalField } from '../../core/protocol.ts';
import type { WidgetInit } from '../widgets/read-widget.ts';

/**
 * Returned by a tool's `run` to end the run on purpose after this call (docs/agent-loop.md,
 * "Evidence"): the call completes with `result` (or the reason) as its content, no
 * further call or model turn runs, and the run finishes `RUN_FINISHED{outcome:{type:"stopped",
 * reason}}`: stopped, not failed.
 */
export class RunEnding {
  constructor(
    readonly reason: string,
    readonly result?: unknown,
  ) {}
}

/** Returns the value a tool returns to end the run on purpose, with the reason shown to the user. */
export function endRun(reason: string, result?: unknown): RunEnding {
  return new RunEnding(reason, result);
}

/** What a tool passes to {@link propose}: the preview the user sees and the write Apply runs. */
export interface ProposalInit {
  /** One sentence saying what would change. */
  summary: string;
  /** The values that would change, each with the one it replaces when there is one. */
  fields?: ProposalField[];
  /** A text change; the user sees it as lines added, removed and unchanged. */
  diff?: { before: string; after: string };
  /** The server tool Apply runs, with exactly these arguments (checked against its schema now). */
  apply: { tool: string; arguments: Record<string, unknown> };
}

/**
 * Returned by a tool's `run` to propose a write instead of acting (docs/agent-loop.md,
 * "Proposals"): the user answers Apply or Dismiss, and Apply runs the write through the governed path.
 */
export class WriteProposal {
  constructor(readonly init: ProposalInit) {}
}

/** Returns the value a tool returns to propose a write (previewed as `fields` and/or a text `diff`) instead of making it. */
export function propose(init: ProposalInit): WriteProposal {
  return new WriteProposal(init);
}

/**
 * Returned by a tool's `run` to answer with a widget beside its result (docs/widgets.md): the model
 * gets `result` (a string as is, anything else as JSON), the user sees `widget` on the call's card.
 */
export class WidgetAnswer {
  constructor(
    readonly result: unknown,
    readonly widget: WidgetInit,
  ) {}
}

/**
 * Returns the value a tool returns to show `widget` (`{widgetId?, root}`, checked against the
 * catalogue and its limits) beside `result`. A widget that fails a check is left out (the server
 * logs why) and the call completes with its result alone.
 */
export function showWidget(result: unknown, widget: WidgetInit): WidgetAnswer {
  return new WidgetAnswer(result, widget);
}
