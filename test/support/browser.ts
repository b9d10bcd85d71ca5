/**
 * Headless Debian Chromium for browser tests, driven by playwright-core (no browser download).
 *
 *   const browser = await launchBrowser();   // a persistent context on a fresh profile folder
 *   const page = await browser.newPage();
 *   ...
 *   await browser.close();                    // also removes the profile folder
 *
 * A missing /usr/bin/chromium is an error, never a skip.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches headless Chromium on a fresh `--user-data-dir` (playwright passes it for a persistent
 * context) and returns that context; `close()` also removes the profile folder.
 */
export async function launchBrowser(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing; the browser tests need Debian's Chromium: apt-get install chromium`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'fw-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const close = browser.close.bind(browser);
  browser.close = async (...args: Parameters<BrowserContext['close']>) => {
    await close(...args);
    rmSync(profile, { recursive: true, force: true });
  };
  return browser;
}
