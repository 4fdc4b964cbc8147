import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import wasm from 'vite-plugin-wasm';

/**
 * The dev server serves each page as the build prerenders it (static HTML with islands), so the
 * browser code is the same in both.
 */
const prerenderInDev: Plugin = {
  name: 'prerender-in-dev',
  apply: 'serve',
  async transformIndexHtml(html, { server, originalUrl }) {
    const { renderPage } = await server!.ssrLoadModule('/src/entry-server.tsx');
    return renderPage(html, new URL(originalUrl ?? '/', 'http://dev').pathname);
  },
};

/**
 * The modules of one chunk, fetched after the first paint: React with its DOM renderer, the
 * class-name helpers, the islands' mounting and the islands that start with the page (the header,
 * the particle canvas's component, the voice check, and the partner strip, on most screens within
 * the first one). One file compresses better than the dozen it replaces. Only sizes depend on this
 * list (`scripts/first-load-size.mjs`): a module left out gets a chunk of its own again.
 */
const FIRST_ISLANDS = [
  /node_modules[\\/](react|react-dom|scheduler|clsx|class-variance-authority)[\\/]/,
  /src[\\/]islands[\\/]mount\.tsx$/,
  /src[\\/]components[\\/]layout[\\/](SiteHeader|NavLinks)\.tsx$/,
  /src[\\/]components[\\/]ui[\\/](button-variants|first-screen-icons)\.tsx?$/,
  /src[\\/]components[\\/]motion[\\/]Reveal\.tsx$/,
  /src[\\/](spec-constants|lib[\\/]use-scrolled-past)\.ts$/,
  /src[\\/]sections[\\/]PartnerStrip\.tsx$/,
  /src[\\/]particles[\\/](ParticleBackground\.tsx|when-interactive\.ts)$/,
  /src[\\/]voice[\\/](load-voice-island|client-config)\.ts$/,
];

export default defineConfig({
  plugins: [react(), tailwindcss(), wasm(), prerenderInDev],
  define: {
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  // The particle worker (src/particles/particle-worker.ts) imports wasm-core like the page does.
  worker: {
    format: 'es',
    plugins: () => [wasm()],
  },
  build: {
    // Native top-level await and wasm ESM integration need a modern target.
    target: 'es2022',
    // What import() loads after the first paint (React, the islands) is not announced with
    // <link rel="modulepreload"> elements: inserting them cost the main thread 5 to 11 ms per
    // island here (measured), several times that on a phone; the browser's module loader finds
    // the same imports itself, a round trip later. The HTML's own preloads stay.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The entry's own modules, in one file; first, so that a module it shares with an
            // island (the texts, the quote links) never joins the React chunk, which would then be
            // on the first paint's path (e2e/first-paint.test.mjs checks).
            { name: 'entry', tags: ['$initial'], priority: 1 },
            { name: 'react', test: (id) => FIRST_ISLANDS.some((pattern) => pattern.test(id)) },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
