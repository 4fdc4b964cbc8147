import { Suspense, type ReactNode } from 'react';

/**
 * A part of the prerendered page that React hydrates on its own, in its own short task, after
 * the parts before it: hydrating the whole page in one commit blocks input for too long (Total
 * Blocking Time). If the visitor acts on a part before its turn, React hydrates that part first
 * and replays the event, so nothing is lost.
 */
export function HydrationBoundary({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}
