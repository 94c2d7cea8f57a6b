import type { ToolRunnerStrings } from '../core/index.ts';
import { EN_TOOL_RUNNER_STRINGS } from '../core/index.ts';

/** The runner's Simplified Chinese strings. */
export const ZH_CN_TOOL_RUNNER_STRINGS: ToolRunnerStrings = {
  here: '在此浏览器中{status}',
  elsewhere: '在另一个标签页或浏览器中{status}',
  waiting: '等待浏览器执行',
  needsReconciliation: '需要核对',
  statuses: {
    awaiting_executor: '启动中',
    running: '运行中',
    completed: '已完成',
    failed: '失败',
    cancelled: '已取消',
  },
};

/** The runner's strings for `locale` (a BCP 47 tag): Simplified Chinese for `zh…`, else English. */
export function pickToolRunnerStrings(locale: string | undefined): ToolRunnerStrings {
  return locale?.toLowerCase().startsWith('zh') ? ZH_CN_TOOL_RUNNER_STRINGS : EN_TOOL_RUNNER_STRINGS;
}
