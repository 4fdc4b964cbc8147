import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { islandIdPrefix, islands, type IslandName } from './registry';

/**
 * Brings every island container of the prerendered page to life, each on its own root, so each
 * hydrates in its own short task as soon as its code arrives (low Total Blocking Time).
 */
export function mountIslands() {
  for (const container of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = container.dataset.island as IslandName;
    const island = islands[name];
    island.load().then(
      (Component) => {
        const app = (
          <StrictMode>
            <Component />
          </StrictMode>
        );
        const options = { identifierPrefix: islandIdPrefix(name) };
        if (island.prerender) hydrateRoot(container, app, options);
        else createRoot(container, options).render(app);
      },
      (error: unknown) => console.error(`The ${name} island could not load`, error),
    );
  }
}
