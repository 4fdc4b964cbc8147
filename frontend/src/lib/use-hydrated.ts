import { useEffect, useState } from 'react';

/** False in the prerendered HTML and during hydration; true once the component is live. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  // The second render after hydration is the point: the prerendered HTML and the first client
  // render must agree, so the live state can only come from an effect.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
