import { pickLocalized } from '../locale/pick-localized.ts';
import { APPROVAL_SUMMARY_TIMEOUT_MS, MAX_APPROVAL_TEXT_CHARS, type ToolDefinition } from '../tools/tool-registry.ts';
import type { RunContext } from './engine-options.ts';

/** What a call's approval says to the end user, from its tool's `approval` (each absent when the tool gives none). */
export interface ApprovalTexts {
  summary?: string;
  consequence?: string;
}

/**
 * Resolves `tool.approval` for a call with `args`: the consequence in the run's locale, and the
 * summary the tool words from a copy of the arguments. A summary that throws, gives no text or
 * takes longer than `APPROVAL_SUMMARY_TIMEOUT_MS` is left out (logged as a warning), so the
 * approval asks the default question; each text is trimmed and cut at `MAX_APPROVAL_TEXT_CHARS`.
 */
export async function resolveApprovalTexts(
  context: RunContext,
  tool: Pick<ToolDefinition, 'name' | 'approval'>,
  args: unknown,
): Promise<ApprovalTexts> {
  const { approval } = tool;
  if (approval === undefined) return {};
  const { locale } = context.handle;
  const consequence = capText(
    (approval.consequences === undefined ? undefined : pickLocalized(approval.consequences, locale)) ??
      approval.consequence,
  );
  const summary = approval.summary === undefined ? undefined : capText(await summarize(context, tool, args));
  return { ...(summary === undefined ? {} : { summary }), ...(consequence === undefined ? {} : { consequence }) };
}

async function summarize(
  context: RunContext,
  tool: Pick<ToolDefinition, 'name' | 'approval'>,
  args: unknown,
): Promise<unknown> {
  const { settings, handle } = context;
  let timer: unknown;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = settings.clock.setTimeout(
      () => reject(new Error(`took longer than ${APPROVAL_SUMMARY_TIMEOUT_MS} ms`)),
      APPROVAL_SUMMARY_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      Promise.resolve().then(() => {
        // A copy, so a summary that changes its arguments cannot change the call that was digested.
        const copy = args !== null && typeof args === 'object' && !Array.isArray(args) ? structuredClone(args) : {};
        return tool.approval?.summary?.(copy as Record<string, unknown>, {
          subject: handle.subject,
          locale: handle.locale,
        });
      }),
      timeout,
    ]);
  } catch (error) {
    settings.log({
      level: 'warn',
      message: `the approval summary of tool "${tool.name}" failed; asking the default question`,
      runId: handle.runId,
      detail: error,
    });
    return undefined;
  } finally {
    settings.clock.clearTimeout(timer);
  }
}

/** `text` trimmed and cut at `MAX_APPROVAL_TEXT_CHARS` (whole code points, `…` last); undefined when it is no text or blank. */
function capText(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const codePoints = Array.from(trimmed);
  return codePoints.length <= MAX_APPROVAL_TEXT_CHARS
    ? trimmed
    : `${codePoints.slice(0, MAX_APPROVAL_TEXT_CHARS - 1).join('')}…`;
}
