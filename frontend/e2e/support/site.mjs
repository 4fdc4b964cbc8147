// One browser and one real server shared by the tests of a file, started before them and
// stopped after them.
import { after, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { startServer } from './server.mjs';

/** Returns an object whose `browser` and `server` are set once the file's tests start. */
export function sharedSite() {
  const site = { browser: undefined, server: undefined };
  before(async () => {
    [site.browser, site.server] = await Promise.all([launchBrowser(), startServer()]);
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
  return site;
}
