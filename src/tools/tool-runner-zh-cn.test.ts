import { describe, expect, it } from 'vitest';
import type { SnapshotToolCall } from '../core/index.ts';
import { describeToolCall, EN_TOOL_RUNNER_STRINGS } from '../core/index.ts';
import { pickToolRunnerStrings, ZH_CN_TOOL_RUNNER_STRINGS } from './tool-runner-zh-cn.ts';

const call: SnapshotToolCall = {
  toolCallId: 'tc_1',
  name: 'cart.add',
  status: 'completed',
  executor: { kind: 'browser', executorId: 'exe_1' },
};

describe('the tool runner in Simplified Chinese', () => {
  it('writes the card notes in Chinese', () => {
    const zh = ZH_CN_TOOL_RUNNER_STRINGS;
    expect([
      describeToolCall(call, { calls: { tc_1: 'done' } }, zh),
      describeToolCall({ ...call, status: 'running' }, { calls: { tc_1: 'elsewhere' } }, zh),
      describeToolCall(call, { calls: { tc_1: 'needs_reconciliation' } }, zh),
      describeToolCall({ ...call, status: 'awaiting_executor' }, { calls: {} }, zh),
    ]).toEqual(['在此浏览器中已完成', '在另一个标签页或浏览器中运行中', '需要核对', '等待浏览器执行']);
  });

  it('is picked for every zh locale, English for the others', () => {
    expect(['zh-CN', 'zh', 'ZH-hans', 'en-US', 'de', undefined].map(pickToolRunnerStrings)).toEqual([
      ZH_CN_TOOL_RUNNER_STRINGS,
      ZH_CN_TOOL_RUNNER_STRINGS,
      ZH_CN_TOOL_RUNNER_STRINGS,
      EN_TOOL_RUNNER_STRINGS,
      EN_TOOL_RUNNER_STRINGS,
      EN_TOOL_RUNNER_STRINGS,
    ]);
  });
});
