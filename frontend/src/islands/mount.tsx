import { StrictMode, startTransition, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { islandIdPrefix, islands, type IslandName } from './registry';

/** Set on an island's container once its component has mounted: tests wait for it. */
const LIVE_ATTRIBUTE = 'data-live';
/** How far ahead of the viewport a 'visible' island starts: half a screen, its code's fetch time. */
const VISIBLE_MARGIN = '50% 0px';

/** Marks the container after everything inside has mounted (a parent's effects run last). */
function Live({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useEffect(() => container.setAttribute(LIVE_ATTRIBUTE, ''), [container]);
  return children;
}

/**
 * Fetches the island's code and brings it to life on a root of its own. It starts as a transition:
 * React then renders it in slices of a few milliseconds, yielding to the browser between them,
 * where a plain hydration holds the main thread for the whole island (Total Blocking Time).
 */
function mount(name: IslandName, container: HTMLElement) {
  const island = islands[name];
  island.load().then(
    (Component) => {
      const app = (
        <StrictMode>
          <Live container={container}>
            <Component />
          </Live>
        </StrictMode>
      );
      const options = { identifierPrefix: islandIdPrefix(name) };
      startTransition(() => {
        if (island.prerender) hydrateRoot(container, app, options);
        else createRoot(container, options).render(app);
      });
    },
    (error: unknown) => console.error(`The ${name} island could not load`, error),
  );
}

/** Calls `start` once, when `container` comes near the viewport or is focused or touched first. */
function whenNear(container: HTMLElement, start: () => void) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) begin();
    },
    { rootMargin: VISIBLE_MARGIN },
  );
  const begin = () => {
    observer.disconnect();
    container.removeEventListener('focusin', begin);
    container.removeEventListener('pointerdown', begin);
    start();
  };
  observer.observe(container);
  container.addEventListener('focusin', begin);
  container.addEventListener('pointerdown', begin);
}

/**
 * Brings every island container of the prerendered page to life, each starting in a task of its
 * own rather than all in the one that loaded this module, the ones below the fold when the
 * visitor comes near them, and those that follow another when it starts.
 */
export function mountIslands() {
  const containers = new Map(
    [...document.querySelectorAll<HTMLElement>('[data-island]')].map((el) => [
      el.dataset.island as IslandName,
      el,
    ]),
  );
  const start = (name: IslandName) => {
    setTimeout(() => mount(name, containers.get(name)!));
    for (const follower of containers.keys()) {
      const { when } = islands[follower];
      if (typeof when === 'object' && when.with === name) start(follower);
    }
  };
  for (const [name, container] of containers) {
    const { when } = islands[name];
    if (when === 'load') start(name);
    else if (when === 'visible') whenNear(container, () => start(name));
  }
}
