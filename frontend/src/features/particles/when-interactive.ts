/**
 * Calls `start` once the page has loaded and the main thread is idle, so nothing decorative
 * competes with the first paint or the first interaction. Returns a function that cancels it.
 */
export function whenInteractive(start: () => void): () => void {
  let cancelled = false;
  let handle = 0;
  // Safari has no idle callbacks; a short timeout after load is the closest stand-in.
  const hasIdle = typeof window.requestIdleCallback === 'function';
  const run = () => !cancelled && start();
  const schedule = () => {
    handle = hasIdle
      ? window.requestIdleCallback(run, { timeout: 2000 })
      : window.setTimeout(run, 200);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    if (hasIdle) window.cancelIdleCallback(handle);
    else window.clearTimeout(handle);
  };
}
