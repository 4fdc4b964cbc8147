/** How long a tab that paints no frame (a hidden one) waits before going on anyway. */
const UNPAINTED_WAIT_MS = 100;

/**
 * Resolves once the browser has painted what is on screen now (a frame, then a task after it).
 * Work awaited behind it no longer holds back the answer to the visitor's tap: a tap's latency
 * (Interaction to Next Paint) runs until the next paint.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, UNPAINTED_WAIT_MS);
  });
}
