// The interactive parts of the page. Each one is its own React root in the browser; everything
// else is served as plain prerendered HTML and never hydrated (no React code runs for it).
import type { ComponentType } from 'react';

interface IslandEntry {
  /** The island's code, fetched after first paint as a chunk of its own. */
  load: () => Promise<ComponentType>;
  /** Whether the island is in the prerendered HTML (and hydrated) or rendered in the browser only. */
  prerender: boolean;
  /**
   * 'load': right after the first paint. 'visible': once the island comes near the viewport (or
   * takes focus or a pointer first): an island below the fold costs nothing until the visitor
   * scrolls towards it, and its prerendered HTML reads and looks the same meanwhile. `{ with }`:
   * when the island named starts (never on a page without it).
   */
  when: 'load' | 'visible' | { with: string };
  /**
   * Whether the island's code comes in the one chunk of React and the islands' mounting, fetched
   * right after the first paint (the islands that start with the page, and those on most screens
   * within the first one), or in a chunk of its own. One file compresses better than the dozen it
   * replaces. vite.config.ts reads this to build the chunk; only sizes depend on it
   * (`scripts/first-load-size.mjs`).
   */
  firstChunk: boolean;
}

export const islands = {
  particles: {
    load: () =>
      import('../features/particles/ParticleBackground').then(
        (module) => module.ParticleBackground,
      ),
    prerender: true,
    when: 'load',
    firstChunk: true,
  },
  header: {
    load: () => import('../components/layout/SiteHeader').then((module) => module.SiteHeader),
    prerender: true,
    when: 'load',
    firstChunk: true,
  },
  partners: {
    load: () => import('../sections/PartnerStrip').then((module) => module.PartnerStrip),
    prerender: true,
    when: 'visible',
    firstChunk: true,
  },
  testimonials: {
    load: () =>
      import('../sections/TestimonialsSection').then((module) => module.TestimonialsSection),
    prerender: true,
    when: 'visible',
    firstChunk: false,
  },
  'quote-form': {
    load: () => import('../features/quote/QuoteForm').then((module) => module.QuoteForm),
    prerender: true,
    when: 'visible',
    firstChunk: false,
  },
  // Notifications only follow an action: the quote form's answers, the one part that shows them.
  // Their code (Radix Toast, the store) arrives with the form's, before any answer can.
  toaster: {
    load: () => import('../components/ui/toaster').then((module) => module.Toaster),
    prerender: false,
    when: { with: 'quote-form' },
    firstChunk: false,
  },
  // The voice button needs JavaScript to do anything.
  voice: {
    load: () =>
      import('../features/voice/load-voice-island').then((module) => module.loadVoiceIsland()),
    prerender: false,
    when: 'load',
    firstChunk: true,
  },
} satisfies Record<string, IslandEntry>;

export type IslandName = keyof typeof islands;

/** Every root numbers its `useId` ids from zero: a prefix per island keeps them unique in the page. */
export const islandIdPrefix = (name: IslandName) => `${name}-`;
