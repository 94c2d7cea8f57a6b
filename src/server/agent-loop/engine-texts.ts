import { pickLocalized } from '../locale/pick-localized.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';

/** The text the agent loop writes for the user to read; `{name}` placeholders are filled in. */
export interface EngineTexts {
  /**
   * The approval question, in the product's words: `{tool}` is the tool's title (or name); `{name}`,
   * its name as the code knows it, is there for products that want to show it.
   */
  approvalQuestion: string;
  /** `RUN_TIMEOUT`: `{limit}` is the duration. */
  runTimeout: string;
  /** `MAX_ITERATIONS`: `{limit}` is the number of rounds. */
  maxRounds: string;
  /** `MODEL_TIMEOUT` of a round: `{limit}` is the duration. */
  roundTimeout: string;
  /** `TOKEN_BUDGET_EXCEEDED`: `{tokens}` estimated, `{limit}` allowed. */
  tokenBudget: string;
  /** `MODEL_ERROR` when the model adapter failed in a way it did not describe. */
  modelFailed: string;
  /** `NOTICE{MODEL_RETRYING}`: a model call failed and is tried again. */
  modelRetrying: string;
  /** `INTERNAL`: `{reference}` is the run's correlation id. */
  internal: string;
  /** Units of a duration: `{count}` seconds and minutes. */
  seconds: string;
  minutes: string;
}

/** English, the default. */
export const ENGLISH_ENGINE_TEXTS: EngineTexts = {
  approvalQuestion: '"{tool}" needs your OK before it runs. Check the details below.',
  runTimeout: 'The run took longer than its limit of {limit} and was stopped.',
  maxRounds: 'The agent reached its limit of {limit} rounds without finishing.',
  roundTimeout: 'A step of the agent took longer than {limit} and was stopped.',
  tokenBudget: 'The conversation is too long for the agent (about {tokens} tokens; the limit is {limit}).',
  modelFailed: 'The model failed unexpectedly.',
  modelRetrying: 'The model did not answer; trying again.',
  internal: 'The agent hit an unexpected problem (reference {reference}).',
  seconds: '{count} s',
  minutes: '{count} minutes',
};

/** Simplified Chinese, for `zh` locales. */
export const CHINESE_ENGINE_TEXTS: EngineTexts = {
  approvalQuestion: '“{tool}”需要你同意后才会运行。请检查下面的详细信息。',
  runTimeout: '运行时间超过了 {limit} 的上限，已停止。',
  maxRounds: '智能体已达到 {limit} 轮的上限，仍未完成。',
  roundTimeout: '智能体的一个步骤超过了 {limit}，已停止。',
  tokenBudget: '对话太长（约 {tokens} 个词元，上限为 {limit}）。',
  modelFailed: '模型意外出错。',
  modelRetrying: '模型没有回应，正在重试。',
  internal: '智能体遇到意外问题（参考编号 {reference}）。',
  seconds: '{count} 秒',
  minutes: '{count} 分钟',
};

/** Returns the texts for `locale`: the product's for that locale laid over the built-in ones (`zh*` Chinese, else English). */
export function resolveEngineTexts(
  locale: string | undefined,
  productTexts: Readonly<Record<string, Partial<EngineTexts>>> = {},
): EngineTexts {
  const base = locale?.toLowerCase().startsWith('zh') ? CHINESE_ENGINE_TEXTS : ENGLISH_ENGINE_TEXTS;
  const wanted = locale?.toLowerCase();
  const key = Object.keys(productTexts).find((candidate) => candidate.toLowerCase() === wanted);
  const own = key === undefined ? undefined : productTexts[key];
  return own === undefined ? base : { ...base, ...own };
}

/** Returns `template` with each `{name}` replaced by `values[name]`. */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A duration in the reader's units: seconds under two minutes, minutes above. */
export function formatDuration(ms: number, texts: EngineTexts): string {
  return ms < 120_000
    ? fillText(texts.seconds, { count: Math.round(ms / 1000) })
    : fillText(texts.minutes, { count: Math.round(ms / 60_000) });
}

/** The tool's title in `locale` (its `titles` entry for it or its language), else its `title`. */
export function localizeToolTitle(
  tool: Pick<ToolDefinition, 'title' | 'titles'>,
  locale: string | undefined,
): string | undefined {
  return (tool.titles === undefined ? undefined : pickLocalized(tool.titles, locale)) ?? tool.title;
}
