/** How long a page that never paints (opened in a background tab) waits before starting anyway. */
const UNPAINTED_START_MS = 3000;

/**
 * Runs `start` once, after the browser has shown the page's first content, so nothing `start`
 * fetches or runs competes with the first paint for the network or the main thread: the
 * prerendered HTML paints from its own bytes, and scripts fetched before it (even deferred
 * modules) would be on the first paint's path in a slow network's arithmetic.
 */
export function afterFirstPaint(start: () => void) {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    start();
  };
  const paints =
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('paint');
  const observer = paints
    ? new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) once();
      })
    : null;
  // `buffered` also reports a paint that happened before this module ran.
  if (observer) observer.observe({ type: 'paint', buffered: true });
  else requestAnimationFrame(() => setTimeout(once));
  setTimeout(once, UNPAINTED_START_MS);
}
