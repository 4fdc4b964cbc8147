// One browser and one real server shared by the tests of a file, started before them and
// stopped after them.
import { after, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { startServer } from './server.mjs';

/** Launches the browser and starts the server; `stop()` ends both. */
async function startSite() {
  const [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  return { browser, server, stop: () => Promise.all([browser.close(), server.stop()]) };
}

/**
 * Returns an object whose `browser` and `server` are set once the file's tests start. (Node 20
 * runs a file's top-level `before` hooks at once, not one after the other: another hook cannot
 * read them.)
 */
export function sharedSite() {
  const site = { browser: undefined, server: undefined };
  let started;
  before(async () => {
    started = await startSite();
    Object.assign(site, started);
  });
  after(() => started?.stop());
  return site;
}
