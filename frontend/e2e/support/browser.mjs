// Debian's Chromium driven by playwright-core (a downloaded browser is not available here), for
// the test runner's configuration and the scripts that open pages.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const VIEWPORTS = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
};
/** Whether the page is no wider than its window (nothing scrolls sideways). */
export const fitsTheScreen = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

export const outputDir = join(repoRoot, 'test-output');
mkdirSync(outputDir, { recursive: true });

export function launchBrowser(options = {}) {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

/**
 * A page in a context of its own, with every uncaught page error and console error of any page or
 * worker of the context collected: `errors` and `consoleErrors` (as "text (url:line)"). The tests
 * get it through the `openPage` fixture (test.mjs), which fails a test on them; a script checks
 * them itself.
 */
export async function openPage(browser, { viewport = VIEWPORTS.desktop, ...contextOptions } = {}) {
  const context = await browser.newContext({ viewport, ...contextOptions });
  const page = await context.newPage();
  const errors = [];
  const consoleErrors = [];
  context.on('weberror', (error) => errors.push(error.error()));
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    consoleErrors.push(url ? `${message.text()} (${url}:${lineNumber})` : message.text());
  });
  return { page, context, errors, consoleErrors };
}
