// Fills the built dist/index.html shell with the rendered landing page and writes dist/404.html
// (which the backend sends, with status 404, for every unknown path). Run after both builds:
// `vite build` (client) and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const ssrDir = new URL('../dist-ssr/', import.meta.url);
const { render } = await import(new URL('entry-server.js', ssrDir).href);
const shell = readFileSync(new URL('index.html', dist), 'utf8');

for (const marker of ['<!--app-head-->', '<!--app-html-->']) {
  if (!shell.includes(marker)) throw new Error(`dist/index.html lacks ${marker}`);
}

const pages = [
  { path: '/', kind: 'landing', file: 'index.html' },
  { path: '/404', kind: 'not-found', file: '404.html' },
];
for (const { path, kind, file } of pages) {
  const { html, head } = await render(path, kind);
  // A function replacement, so `$` in the content is not read as a pattern.
  const page = shell.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => html);
  writeFileSync(new URL(file, dist), page);
  console.log(`prerendered ${path} -> dist/${file} (${(page.length / 1024).toFixed(1)} KB)`);
}
rmSync(ssrDir, { recursive: true, force: true });
