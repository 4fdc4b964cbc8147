// Waiting on the page's own rendering rather than on the clock: a check that nothing moved lets
// the page draw a number of frames first, a check that something moved waits until it has, each
// with a deadline, so a slow machine neither fails them nor makes them pass by accident.

/** How long a test waits for frames, or for a change, before it fails. */
const DEADLINE_MS = 10_000;

/** Resolves once the page has drawn `count` more animation frames. */
export function afterFrames(page, count) {
  return page.evaluate(
    ([count, deadline]) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the page drew fewer than ${count} frames in ${deadline} ms`)),
          deadline,
        );
        let left = count;
        const tick = () => {
          if (--left > 0) return requestAnimationFrame(tick);
          clearTimeout(timer);
          resolve();
        };
        requestAnimationFrame(tick);
      }),
    [count, DEADLINE_MS],
  );
}

/**
 * Reads `read()` once a page frame until `done(value)` holds and returns that value; fails with
 * the last value read after the deadline.
 */
export async function untilFrame(page, read, done) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`no change within ${DEADLINE_MS} ms: ${JSON.stringify(value)}`);
    await afterFrames(page, 1);
  }
}
