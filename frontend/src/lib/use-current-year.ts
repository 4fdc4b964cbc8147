import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * The visitor's current year. The prerendered page carries the build year; hydration starts from
 * that same value and then switches to the clock's, so a page built last December is still right.
 */
export function useCurrentYear(): number {
  return useSyncExternalStore(
    noSubscription,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}
