import { expect, type Locator, type Page } from '@playwright/test';

/** Locators and actions on one mounted widget, addressed through its container (CSS pierces shadow roots). */
export interface ChatDriver {
  root: Locator;
  input: Locator;
  sendButton: Locator;
  stopButton: Locator;
  userMessages: Locator;
  assistantMessages: Locator;
  reasoning: Locator;
  toolCards: Locator;
  approvalCards: Locator;
  /** Types `text` into the composer and presses Enter. */
  send(text: string): Promise<void>;
  /** Waits until no run is active (the Stop button is gone and the composer is enabled). */
  waitForIdle(): Promise<void>;
}

/** A driver for the widget mounted in `container` (default the demo's inline chat). */
export function chat(page: Page, container = '#inline-chat'): ChatDriver {
  const root = page.locator(`${container} agent-chat`);
  const driver: ChatDriver = {
    root,
    input: root.locator('[part~="input"]'),
    sendButton: root.locator('[part~="send-button"]'),
    stopButton: root.locator('[part~="stop-button"]'),
    userMessages: root.locator('[part~="user-message"]'),
    assistantMessages: root.locator('[part~="assistant-message"]'),
    reasoning: root.locator('[part~="reasoning"]'),
    toolCards: root.locator('[part~="tool-card"]'),
    approvalCards: root.locator('[part~="approval-card"]'),
    async send(text) {
      await driver.input.fill(text);
      await driver.input.press('Enter');
    },
    async waitForIdle() {
      await expect(driver.stopButton).toHaveCount(0);
      await expect(driver.input).toBeEditable();
    },
  };
  return driver;
}

/** Opens a demo page and waits until its inline widget has bootstrapped. */
export async function openDemo(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await waitForDemo(page);
}

/** Waits until the demo page's inline widget has bootstrapped (after a `page.reload()`, without navigating again). */
export async function waitForDemo(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as DemoWindow).agentChatDemo?.inline.client.getState().bootstrap != null);
}

/** The handles the demo pages expose for tests. */
export interface DemoWindow extends Window {
  agentChatDemo?: {
    inline: {
      element: HTMLElement;
      client: {
        getState(): DemoState;
        restore(sessionId: string | null): Promise<void>;
        dispose(): void;
        resetIdentity(): void;
        bootstrap(): Promise<unknown>;
        setVisibility(visible: boolean): void;
      };
      destroy(): void;
    };
    launcher?: { element: HTMLElement; client: { getState(): DemoState }; destroy(): void };
  };
}

/** The slice of the client state the tests read. */
export interface DemoState {
  bootstrap: { identity: { identityId: string } } | null;
  sessionId: string | null;
  run: { runId: string; status: string; lastSeq: number } | null;
  messages: Array<{ messageId: string; role: string; content: string; status: string }>;
  interrupts: Array<{ id: string; state: string; decision?: string }>;
  error: { code: string } | null;
  isStopping: boolean;
  toolCalls: Array<{
    toolCallId: string;
    name: string;
    status: string;
    result?: { content: string };
    executor?: { executorId?: string; reconciliation?: string };
  }>;
  toolRunner: { executorId: string; calls: Record<string, string> } | null;
}

/** The inline widget's client state. */
export function readState(page: Page): Promise<DemoState> {
  return page.evaluate(() => (window as DemoWindow).agentChatDemo!.inline.client.getState());
}

/**
 * Sends `/slow` (the scripted model's slow answer), reloads the page while it streams, checks the
 * widget follows the same run (the answer keeps growing) and stops it with Escape.
 */
export async function expectSlowAnswerSurvivesReload(page: Page, widget: ChatDriver): Promise<void> {
  await widget.send('/slow');
  const answerLength = async () => (await widget.assistantMessages.last().textContent())?.trim().length ?? 0;
  await expect.poll(answerLength).toBeGreaterThan(0);
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'streaming');
  const beforeReload = await answerLength();
  await page.reload();
  await expect(widget.userMessages.last()).toContainText('/slow');
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'streaming');
  await expect.poll(answerLength).toBeGreaterThan(beforeReload);
  // Escape in the composer stops it.
  await widget.input.press('Escape');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'cancelled');
}
