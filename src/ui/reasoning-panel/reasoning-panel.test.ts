import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { EN_STRINGS } from '../i18n/en.ts';
import { createMessage } from '../test-support/mount-agent-chat.ts';
import { renderReasoningPanel } from './reasoning-panel.ts';

describe('renderReasoningPanel', () => {
  it('renders a closed details with its label and plain-text body, and reports a click instead of toggling', () => {
    const container = document.createElement('div');
    const toggles: Array<[string, boolean]> = [];
    const message = createMessage({ messageId: 'r1', role: 'reasoning', content: 'Step <1>\u202E' });
    render(
      renderReasoningPanel({
        message,
        isOpen: false,
        strings: EN_STRINGS,
        onToggle: (id, isOpen) => toggles.push([id, isOpen]),
      }),
      container,
    );
    const details = container.querySelector('details[part="reasoning"]') as HTMLDetailsElement;
    const summary = details.querySelector('summary') as HTMLElement;
    expect([summary.textContent, details.open, details.querySelector('.reasoning-body')?.textContent]).toEqual([
      'Reasoning',
      false,
      'Step <1>⟪U+202E⟫',
    ]);
    summary.click();
    expect(toggles).toEqual([['r1', true]]);
    expect(details.open).toBe(false);
  });
});
