import { existsSync } from 'node:fs';

/** Debian's Chromium, which CI installs; Playwright cannot download its own browser here. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Returns Playwright launch options for headless Chromium: the system binary when present,
 * otherwise Playwright's own browser. The flags keep Chromium off the (closed) network.
 */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ];
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined);
  return executablePath ? { executablePath, args } : { args };
}
