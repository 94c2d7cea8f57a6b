import { describe, expect, it } from 'vitest';
import { buildContextReport } from './scripted-context-report.ts';

describe('buildContextReport', () => {
  it('names the reasoning effort the run asked for, and says nothing of one it did not', () => {
    const request = {
      messages: [
        { role: 'system' as const, content: 'Be kind.', layer: 'kernel' as const },
        { role: 'user' as const, content: '/context' },
      ],
      tools: [],
    };
    const report = buildContextReport(request);
    expect(report.split('\n').slice(-2)).toEqual(['', 'Tools: 0.']);
    expect(
      buildContextReport({ ...request, reasoningEffort: 'high' })
        .split('\n')
        .slice(-3),
    ).toEqual(['', 'Tools: 0.', 'Reasoning effort: high.']);
    expect(report).toContain('| kernel | 8 | no |');
  });
});
