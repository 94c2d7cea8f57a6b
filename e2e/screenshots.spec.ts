import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

for (const theme of ['light', 'dark'] as const) {
  test(`screenshot of the demo in ${theme} theme (saved as a test artifact)`, async ({
    page,
    pageErrors: _errors,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await openDemo(page);
    await page.locator(`button[data-theme="${theme}"]`).click();
    const widget = chat(page);
    await expect(widget.root).toHaveAttribute('theme', theme);
    await widget.send('/tool');
    await widget.waitForIdle();
    await widget.send('/approval');
    await expect(widget.approvalCards.first()).toHaveAttribute('data-state', 'open');
    await page.locator('#launcher [part="launcher-button"]').focus();

    await page.evaluate(() => window.scrollTo(0, 0));
    const background = await widget.root.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).toBe(theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
    const path = testInfo.outputPath(`agent-chat-${theme}.png`);
    await page.screenshot({ path, fullPage: false });
    await widget.root.screenshot({ path: testInfo.outputPath(`agent-chat-${theme}-widget.png`) });
    await testInfo.attach(`agent-chat-${theme}`, { path, contentType: 'image/png' });
  });
}
