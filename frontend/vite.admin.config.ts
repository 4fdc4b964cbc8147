import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { siteContent } from './site-content/plugin.ts';

/**
 * The broker's inbox (admin.html, served at /admin): a build of its own into the same dist/, after
 * the landing page's (`npm run build`), so the landing page's chunks and first load are exactly
 * what they would be without it.
 */
export default defineConfig({
  plugins: [siteContent(), react(), tailwindcss()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    rolldownOptions: { input: { admin: 'admin.html' } },
  },
});
