// Debian's Chromium driven by playwright-core (a downloaded browser is not available here).
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { chromium, errors } from 'playwright-core';
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
export const outputDir = join(repoRoot, 'test-output');
mkdirSync(outputDir, { recursive: true });

/**
 * Whether focus reaches `locator` within `timeout` ms. Radix gives focus back a task after a
 * dialog or focus scope unmounts, so a check made the moment it is gone races it.
 */
export async function focusReaches(locator, timeout = 2000) {
  const element = await locator.elementHandle();
  try {
    await locator
      .page()
      .waitForFunction((el) => el === document.activeElement, element, { timeout });
    return true;
  } catch (error) {
    if (error instanceof errors.TimeoutError) return false;
    throw error;
  }
}

export function launchBrowser(options = {}) {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

// Every page opened by openPage whose errors have not been checked for the last time yet.
const sessions = new Set();

/**
 * A page that fails the test on any uncaught page error or console error, in any page or worker
 * of its context, checked after each test (a hook every test file gets by importing this
 * module). A test that expects errors says which: `expectErrors: [/pattern/, ...]`, each of which
 * must then occur by the time the context is closed, and `allowErrors` for those that may or may
 * not come (third-party code's own reporting); both are matched against "uncaught page error:
 * ..." or "console error: ... (url:line)". Closing never throws, so a test's clean-up still runs.
 */
export async function openPage(
  browser,
  { viewport = VIEWPORTS.desktop, expectErrors = [], allowErrors = [], ...contextOptions } = {},
) {
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
  const session = { errors, consoleErrors, expectErrors, allowErrors, seen: [], closed: false };
  sessions.add(session);
  const close = context.close.bind(context);
  context.close = async (options) => {
    await close(options);
    session.closed = true;
  };
  return { page, context, errors, consoleErrors };
}

/**
 * The errors not expected and, once the context is closed, the expected ones that never came.
 * Each error is reported once: it moves to `seen`.
 */
function problems(session) {
  const fresh = [
    ...session.errors.splice(0).map((error) => `uncaught page error: ${error?.stack ?? error}`),
    ...session.consoleErrors.splice(0).map((text) => `console error: ${text}`),
  ];
  session.seen.push(...fresh);
  const known = [...session.expectErrors, ...session.allowErrors];
  const unexpected = fresh.filter((line) => !known.some((pattern) => pattern.test(line)));
  const missing = session.closed
    ? session.expectErrors.filter((pattern) => !session.seen.some((line) => pattern.test(line)))
    : [];
  return [
    ...unexpected.map((line) => `unexpected ${line}`),
    ...missing.map((pattern) => `expected an error matching ${pattern}, none came`),
  ];
}

// Under the test runner only: in the scripts that borrow openPage (benchmarks), a hook would
// print an empty test report; they check `errors` themselves.
if (process.env.NODE_TEST_CONTEXT || process.argv[1]?.endsWith('.test.mjs')) {
  afterEach(() => {
    const found = [];
    for (const session of sessions) {
      found.push(...problems(session));
      if (session.closed) sessions.delete(session);
    }
    if (found.length) throw new assert.AssertionError({ message: found.join('\n') });
  });
}
