import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../locales/zh-cn.ts';
import { defineConversationsPanel } from '../conversations/conversations-panel.ts';
import { mountAgentChat } from '../test-support/mount-agent-chat.ts';

afterEach(() => {
  document.body.replaceChildren();
});

const buttonOf = (root: ShadowRoot) => root.querySelector<HTMLButtonElement>('[part="conversations-button"]');

// The panel is defined in the first test only: until then this file's widgets have no panel.
describe('<agent-chat> and the conversations sheet', () => {
  it('shows the header button once <agent-chat-conversations> is defined, unless conversations is false', async () => {
    const { element, root } = await mountAgentChat();
    const hidden = await mountAgentChat((widget) => {
      widget.conversations = false;
    });
    expect(customElements.get('agent-chat-conversations')).toBe(undefined);
    expect(buttonOf(root)).toBe(null);

    defineConversationsPanel();
    await customElements.whenDefined('agent-chat-conversations');
    await element.updateComplete;
    await hidden.element.updateComplete;
    expect(buttonOf(root)?.getAttribute('aria-label')).toBe('Conversations');
    expect(buttonOf(root)?.getAttribute('aria-haspopup')).toBe('dialog');
    expect(buttonOf(hidden.root)).toBe(null);

    element.conversations = false;
    await element.updateComplete;
    expect(buttonOf(root)).toBe(null);
  });

  it("opens the sheet over the widget with the widget's client, locale and theme; Escape closes it and focus returns", async () => {
    const { element, client, root } = await mountAgentChat((widget) => {
      widget.theme = 'dark';
    });
    expect(client.listenerCount).toBe(1);
    buttonOf(root)?.click();
    await element.updateComplete;
    const sheet = root.querySelector('agent-chat-conversations');
    if (sheet === null) throw new Error('the sheet did not open');
    await sheet.updateComplete;
    expect([sheet.hasAttribute('sheet'), sheet.client, sheet.locale, sheet.theme]).toEqual([
      true,
      client,
      'en',
      'dark',
    ]);
    // The panel made its conversations from the client: they follow it while the sheet is open.
    expect(client.listenerCount).toBe(2);
    const dialog = sheet.shadowRoot?.querySelector('[role="dialog"]');
    expect([dialog?.getAttribute('aria-modal'), dialog?.getAttribute('aria-labelledby')]).toEqual([
      'true',
      'conversations-heading',
    ]);
    expect(root.querySelector('.content')?.hasAttribute('inert')).toBe(true);
    await expect.poll(() => root.activeElement).toBe(sheet);
    expect(sheet.shadowRoot?.activeElement?.textContent?.trim()).toBe('New conversation');

    await userEvent.keyboard('{Escape}');
    await element.updateComplete;
    expect(root.querySelector('agent-chat-conversations')).toBe(null);
    expect(client.listenerCount).toBe(1);
    expect(root.querySelector('.content')?.hasAttribute('inert')).toBe(false);
    await expect.poll(() => root.activeElement).toBe(buttonOf(root));
  });

  it('covers the whole widget and takes the theming tokens the page set on it', async () => {
    const { element, root } = await mountAgentChat((widget) => {
      widget.style.cssText = 'display:flex;width:375px;height:480px;--agent-chat-color-accent:rgb(1, 2, 3)';
    });
    buttonOf(root)?.click();
    await element.updateComplete;
    const sheet = root.querySelector('agent-chat-conversations');
    await sheet?.updateComplete;
    const box = sheet?.getBoundingClientRect();
    const widgetBox = element.getBoundingClientRect();
    expect([box?.top, box?.left, box?.width, box?.height]).toEqual([
      widgetBox.top,
      widgetBox.left,
      widgetBox.width,
      widgetBox.height,
    ]);
    const newButton = sheet?.shadowRoot?.querySelector('.new-button') as HTMLElement;
    expect(getComputedStyle(newButton).backgroundColor).toBe('rgb(1, 2, 3)');
  });

  it('labels the button and the sheet in Simplified Chinese for zh-CN', async () => {
    const { element, root } = await mountAgentChat((widget) => {
      widget.locale = 'zh-CN';
    });
    expect(buttonOf(root)?.getAttribute('aria-label')).toBe('对话列表');
    buttonOf(root)?.click();
    await element.updateComplete;
    const sheet = root.querySelector('agent-chat-conversations');
    await sheet?.updateComplete;
    expect(sheet?.shadowRoot?.querySelector('h2')?.textContent).toBe('对话');
    expect(sheet?.shadowRoot?.querySelector('[part="close"]')?.getAttribute('aria-label')).toBe('关闭对话列表');
  });
});
