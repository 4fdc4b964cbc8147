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
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
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
