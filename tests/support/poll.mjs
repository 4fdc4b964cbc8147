// Waiting for what a test does not drive itself (a process coming up, a log line, a message, a
// connection going away) by asking again until it is there, with a deadline: a slow machine
// neither fails the test nor makes it pass by accident. The one helper for it, used by the system
// tests, their support and the browser tests (frontend/e2e/support/frames.mjs waits on a page's
// frames instead).
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Calls `check` (it may be async) every `every` ms until it returns something truthy, and
 * resolves with that; after `within` ms it rejects with "`what`: not within `within` ms". An
 * error `check` throws ends the wait with that error.
 */
export async function pollUntil(check, { within, what, every = 100 }) {
  const deadline = Date.now() + within;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${within} ms`);
    await sleep(every);
  }
}
