import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { EN_STRINGS } from '../i18n/en.ts';
import { createMessage } from '../test-support/mount-agent-chat.ts';
import { renderReasoningPanel } from './reasoning-panel.ts';

describe('renderReasoningPanel', () => {
  it('renders a labelled toggle tied to its body and reports toggles', () => {
    const container = document.createElement('div');
    const toggles: Array<[string, boolean]> = [];
    const message = createMessage({ messageId: 'r1', role: 'reasoning', content: 'Step <1>\u202E' });
    render(renderReasoningPanel({ message, isOpen: false, strings: EN_STRINGS, onToggle: (id, isOpen) => toggles.push([id, isOpen]) }), container);
    const button = container.querySelector('button') as HTMLButtonElement;
    const body = container.querySelector('.reasoning-body') as HTMLElement;
    expect([button.textContent?.trim(), button.getAttribute('aria-expanded'), button.getAttribute('aria-controls')]).toEqual([
      'Reasoning',
      'false',
      'reasoning-r1',
    ]);
    expect([body.id, body.hidden, body.textContent]).toEqual(['reasoning-r1', true, 'Step <1>⟪U+202E⟫']);
    button.click();
    expect(toggles).toEqual([['r1', true]]);
  });
});
