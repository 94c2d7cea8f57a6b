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

  it('lists the earlier user messages it got, so a branch shows which turns reached the model', () => {
    const report = buildContextReport({
      messages: [
        { role: 'user', content: 'First\nquestion' },
        { role: 'assistant', content: 'An answer' },
        { role: 'user', content: 'Second' },
        { role: 'assistant', content: 'Another' },
        { role: 'user', content: '/context' },
      ],
      tools: [],
    });
    expect(report.split('\n').at(-1)).toBe('Asked before: “First question”, “Second”.');
  });
});
