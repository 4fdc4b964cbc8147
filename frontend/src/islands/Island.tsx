import { createContext, useContext } from 'react';
import type { IslandName } from './registry';

/** The prerendered HTML of each island, provided by the server render (entry-server.tsx). */
export const IslandHtml = createContext<Partial<Record<IslandName, string>>>({});

/**
 * Where an island sits in the page: a container holding the island's own prerendered HTML, which
 * the browser brings to life on a root of its own (mount.tsx). The page around it is static.
 */
export function Island({ name }: { name: IslandName }) {
  const html = useContext(IslandHtml)[name] ?? '';
  return <div data-island={name} dangerouslySetInnerHTML={{ __html: html }} />;
}
