import { css, html, nothing, render } from 'lit';
import { describe, expect, it } from 'vitest';
import type { SnapshotToolCall, ToolCallStatus } from '../../core/index.ts';
import { EN_STRINGS } from '../i18n/en.ts';
import { ZH_CN_STRINGS } from '../i18n/zh-cn.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { markdownBody } from '../message-list/markdown-body.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';
import { createToolCard, TOOL_RESULT_MAX_CHARS } from './tool-card.ts';

const renderToolCard = createToolCard({
  html,
  nothing,
  css,
  renderVisibleText,
  render,
  markdownBody,
}).render;

function renderCard(
  patch: Partial<SnapshotToolCall>,
  options: { note?: string; strings?: AgentChatStrings } = {},
): HTMLElement {
  const container = document.createElement('div');
  const toolCall: SnapshotToolCall = { toolCallId: 't1', name: 'search_docs', status: 'running', ...patch };
  render(renderToolCard({ toolCall, strings: options.strings ?? EN_STRINGS, note: options.note }), container);
  return container.querySelector('[part="tool-card"]') as HTMLElement;
}

describe('renderToolCard', () => {
  const statuses: Array<[ToolCallStatus, string]> = [
    ['streaming_args', 'Preparing'],
    ['pending', 'Pending'],
    ['awaiting_approval', 'Waiting for approval'],
    ['running', 'Running'],
    ['completed', 'Completed'],
    ['failed', 'Failed'],
    ['denied', 'Denied'],
    ['cancelled', 'Cancelled'],
    ['unknown', 'Unknown outcome'],
    ['awaiting_executor', 'Pending'],
    ['expired', 'Expired'],
  ];
  for (const [status, label] of statuses) {
    it(`labels the ${status} status "${label}"`, () => {
      const card = renderCard({ status });
      expect(card.dataset.status).toBe(status);
      expect(card.querySelector('.tool-status')?.textContent).toBe(label);
    });
  }

  it('is one line with the title (never the internal name), details closed, and the progress fraction below', () => {
    const card = renderCard({
      title: 'Search the docs',
      args: { query: 'sse' },
      progress: { fraction: 0.42, message: 'Page 2' },
    });
    expect(card.querySelector('summary')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Search the docs Running');
    expect(card.textContent).not.toContain('search_docs');
    expect((card.querySelector('details') as HTMLDetailsElement).open).toBe(false);
    expect(card.querySelector('details pre')?.textContent).toBe('{\n  "query": "sse"\n}');
    const progress = card.querySelector('progress') as HTMLProgressElement;
    expect([progress.value, progress.max, progress.getAttribute('aria-label')]).toEqual([42, 100, 'Progress']);
    expect(card.querySelector('.tool-progress')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('42% Page 2');
  });

  it('names a tool without a title by its name, and says how a refused approval ended instead of the status', () => {
    const card = renderCard({ status: 'denied' });
    expect(card.querySelector('.tool-title')?.textContent).toBe('search_docs');
    const container = document.createElement('div');
    render(
      renderToolCard({
        toolCall: { toolCallId: 't1', name: 'x', status: 'denied' },
        strings: EN_STRINGS,
        note: 'Expired without an answer',
      }),
      container,
    );
    expect(container.querySelector('.tool-status')?.textContent).toBe('Expired without an answer');
  });

  it('shows streamed argument text before the arguments are complete', () => {
    const card = renderCard({ status: 'streaming_args', argsText: '{"query": "ss' });
    expect(card.querySelector('details pre')?.textContent).toBe('{"query": "ss');
  });

  it('renders results as text, never as HTML', () => {
    const card = renderCard({
      status: 'completed',
      result: { messageId: 'm1', content: '<img src=x onerror=alert(1)> **not bold**' },
    });
    expect(card.querySelector('details pre')?.textContent).toBe('<img src=x onerror=alert(1)> **not bold**');
    expect(card.querySelector('img, strong')).toBe(null);
    expect(card.querySelector('.truncation-note')).toBe(null);
  });

  it('caps a long result at 16,000 characters with a visible note', () => {
    const card = renderCard({ status: 'completed', result: { messageId: 'm1', content: 'x'.repeat(20_000) } });
    expect(card.querySelector('details pre')?.textContent).toBe('x'.repeat(TOOL_RESULT_MAX_CHARS));
    expect(card.querySelector('.truncation-note')?.textContent).toBe('Truncated: the result is longer than shown.');
  });

  it('shows the note when the server truncated the result', () => {
    const card = renderCard({
      status: 'completed',
      result: { messageId: 'm1', content: '{"rows":[1,2]}', truncated: true },
    });
    expect(card.querySelector('details pre')?.textContent).toBe('{\n  "rows": [\n    1,\n    2\n  ]\n}');
    expect(card.querySelector('.truncation-note')?.textContent).toBe('Truncated: the result is longer than shown.');
  });

  it('spells out hidden characters in arguments', () => {
    const card = renderCard({ args: { path: 'a\u202Eb' } });
    expect(card.querySelector('details pre')?.textContent).toBe('{\n  "path": "a⟪U+202E⟫b"\n}');
    expect(card.querySelector('details pre .escape')?.textContent).toBe('⟪U+202E⟫');
  });

  it('spells out zero-width, word-joiner and tag characters in arguments, raw argument text and results', () => {
    const card = renderCard({
      status: 'completed',
      args: { q: 'a\u200Bb\u2060c\u{E0041}' },
      result: { messageId: 'm1', content: 'ok\u{E0069}', truncated: false },
    });
    // One disclosure holds the arguments, then the result.
    expect(Array.from(card.querySelectorAll('details pre'), (pre) => pre.textContent)).toEqual([
      '{\n  "q": "a⟪U+200B⟫b⟪U+2060⟫c⟪U+E0041⟫"\n}',
      'ok⟪U+E0069⟫',
    ]);
    const streaming = renderCard({ argsText: '{"q":"\u200D\uFE0F' });
    expect(streaming.querySelector('details pre')?.textContent).toBe('{"q":"⟪U+200D⟫⟪U+FE0F⟫');
  });

  it("says the tool runner's note instead of the status, and the expired status in Chinese", () => {
    const browser: Partial<SnapshotToolCall> = { executor: { kind: 'browser', executorId: 'exe_1' } };
    const statusText = (card: HTMLElement) => card.querySelector('.tool-status')?.textContent;
    expect(statusText(renderCard(browser, { note: 'Running in this browser' }))).toBe('Running in this browser');
    expect(statusText(renderCard({ ...browser, status: 'expired' }, { strings: ZH_CN_STRINGS }))).toBe('已过期');
  });

  it('lists the evidence inside the closed disclosure, one check a line, its reason with hidden characters spelled out', () => {
    const card = renderCard({
      status: 'denied',
      result: {
        messageId: 'm1',
        content: 'Not allowed',
        evidence: [
          { source: 'pre_tool_use', decision: 'ask' },
          { source: 'can_execute', decision: 'deny', reason: 'Refunds need a manager\u202E' },
        ],
      },
    });
    const details = card.querySelector('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(Array.from(details.querySelectorAll('.tool-label'), (label) => label.textContent)).toEqual([
      'Result',
      'Checks',
    ]);
    expect(details.querySelectorAll('pre')[1]?.textContent).toBe(
      'pre_tool_use: ask\ncan_execute: deny — Refunds need a manager⟪U+202E⟫',
    );
    expect(renderCard({ status: 'completed', result: { messageId: 'm1', content: 'ok' } }).textContent).not.toContain(
      'Checks',
    );
  });

  it("spells out hidden characters of a note (a stopped run gives the tool's reason)", () => {
    const card = renderCard({ status: 'completed' }, { note: 'Stopped the run: Done\u200B' });
    expect(card.querySelector('.tool-status')?.textContent).toBe('Stopped the run: Done⟪U+200B⟫');
  });
});
