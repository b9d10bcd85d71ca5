/**
 * Headless Chromium for the frontend browser tests: Debian's `/usr/bin/chromium` driven by
 * playwright-core, headless, `--no-sandbox`, background networking off. A missing binary is a
 * test FAILURE with a clear message, never a skip.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where the Debian package installs Chromium. */
export const CHROMIUM_PATH = process.env.FW_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Chromium; throws naming the missing binary. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is required for the browser tests but ${CHROMIUM_PATH} does not exist (apt-get install chromium, or set FW_CHROMIUM)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-default-apps', '--no-first-run', '--disable-dev-shm-usage'],
  });
}
