import type { ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * Renders its children only once the page has hydrated. The state lives here, not in the page
 * root: a root that re-rendered on hydrating would hand every part of the page still waiting to
 * hydrate new props, and React would then hydrate them all at once, in one long blocking task.
 */
export function AfterHydration({ children }: { children: ReactNode }) {
  return useHydrated() ? children : null;
}
