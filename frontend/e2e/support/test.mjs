// The test runner's `test` with this project's fixtures, and its `expect`: every browser and
// system test imports both from here.
import { test as base, expect } from '@playwright/test';
import { openPage } from './browser.mjs';
import { startServer } from './server.mjs';

export { expect };

/**
 * The errors of one page's context the check has not reported yet and, once it is closed, the
 * expected ones that never came. `expectErrors` must each occur by then; `allowErrors` may or may
 * not (third-party code's own reporting); both are matched against "uncaught page error: ..." or
 * "console error: ... (url:line)".
 */
function problems({ errors, consoleErrors, expectErrors, allowErrors, closed }) {
  const seen = [
    ...errors.map((error) => `uncaught page error: ${error?.stack ?? error}`),
    ...consoleErrors.map((text) => `console error: ${text}`),
  ];
  const known = [...expectErrors, ...allowErrors];
  const unexpected = seen.filter((line) => !known.some((pattern) => pattern.test(line)));
  const missing = closed
    ? expectErrors.filter((pattern) => !seen.some((line) => pattern.test(line)))
    : [];
  return [
    ...unexpected.map((line) => `unexpected ${line}`),
    ...missing.map((pattern) => `expected an error matching ${pattern}, none came`),
  ];
}

export const test = base.extend({
  /**
   * `openPage(options)`: a page in a new context of the test's browser (browser.mjs's
   * `openPage`), whose uncaught page errors and console errors fail the test once it ends, in
   * any page or worker of the context, whether or not the test closed it. A test that expects
   * errors says which: `expectErrors: [/pattern/, ...]` and `allowErrors` (see `problems`).
   */
  openPage: async ({ browser }, provide) => {
    const sessions = [];
    await provide(async ({ expectErrors = [], allowErrors = [], ...options } = {}) => {
      const opened = await openPage(browser, options);
      const session = { ...opened, expectErrors, allowErrors, closed: false };
      opened.context.on('close', () => (session.closed = true));
      sessions.push(session);
      return opened;
    });
    for (const session of sessions) await session.context.close();
    const found = sessions.flatMap(problems);
    if (found.length) throw new Error(found.join('\n'));
  },

  /** Options of the test's `server` (startServer's), set with `test.use({ serverOptions })`. */
  serverOptions: [{}, { option: true }],

  /** The real release server over a fresh SQLite database, for one test. */
  server: async ({ serverOptions }, provide) => {
    const server = await startServer(serverOptions);
    await provide(server);
    await server.stop();
  },
});

/**
 * One real server for all the tests of a file (each file runs in one worker, its tests in order),
 * started before the first and stopped after the last; `.server` is set once they start.
 */
export function sharedServer(options) {
  const shared = { server: undefined };
  test.beforeAll(async () => (shared.server = await startServer(options)));
  test.afterAll(async () => shared.server?.stop());
  return shared;
}
