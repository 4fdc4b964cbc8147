import { useEffect, useState } from 'react';

/** False in the prerendered HTML and during hydration; true once the component is live. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
