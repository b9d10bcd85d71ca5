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
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

/**
 * Records what went wrong on `page` from now on: console errors and warnings, failed requests,
 * responses of 400 and above, and uncaught page errors. The returned array fills as they happen.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}
