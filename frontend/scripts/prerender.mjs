// Fills the built dist/index.html shell with the rendered landing page and writes dist/404.html
// (which the backend sends, with status 404, for every unknown path). Run after both builds:
// `vite build` (client) and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
// Usage: node scripts/prerender.mjs [--dist DIR --ssr DIR]
//
// The stylesheet is inlined: a <link rel="stylesheet"> blocks the first paint until it has
// arrived, and the whole of Tailwind's output for this page fits, with the first screen's HTML,
// in the first 14 KB the server sends (e2e/first-paint.test.mjs checks both).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// `--dist DIR --ssr DIR` prerender another build (scripts/first-load-deltas.mjs builds variants).
const dirOption = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1
    ? new URL(fallback, import.meta.url)
    : pathToFileURL(`${process.argv[at + 1].replace(/\/?$/, '/')}`);
};
const dist = dirOption('--dist', '../dist/');
const ssrDir = dirOption('--ssr', '../dist-ssr/');
const { renderPage, renderQuoteResultPage, QUOTE_RESULT_VARIANTS, brand, privacyPage } =
  await import(new URL('entry-server.js', ssrDir).href);
const shell = readFileSync(new URL('index.html', dist), 'utf8');

const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g;
const inlineStyles = (html) =>
  html.replace(
    STYLESHEET,
    (_, file) => `<style>${readFileSync(new URL(file, dist), 'utf8').trim()}</style>`,
  );

// The privacy notice has a slot the server fills with its retention setting, so it goes to the
// hidden folder with what the server reads at start (backend/src/routes/site/privacy.rs).
const serverDir = new URL('.site/', dist);
mkdirSync(serverDir, { recursive: true });
const pages = [
  { path: '/', file: 'index.html' },
  { path: '/404', file: '404.html' },
  { path: '/licences', file: 'licences.html' },
  { path: '/privacy', file: '.site/privacy.html' },
];
for (const { path, file } of pages) {
  const page = inlineStyles(await renderPage(shell, path));
  if (/<link rel="stylesheet"/.test(page)) throw new Error(`dist/${file} still links a stylesheet`);
  writeFileSync(new URL(file, dist), page);
  console.log(`prerendered ${path} -> dist/${file} (${(page.length / 1024).toFixed(1)} KB)`);
}
// What the server takes from the content: the canonical URL (its SITE_URL when that is unset)
// and the privacy notice's words for its retention setting.
writeFileSync(
  new URL('site.json', serverDir),
  `${JSON.stringify({ url: brand.url, retention: { days: privacyPage.retentionDays, unset: privacyPage.retentionUnset } }, null, 2)}\n`,
);
// The result pages of a quote form post without JavaScript, one per outcome, with slots the
// server fills (backend/src/routes/quote_result/pages.rs). In a hidden folder: the site does not
// serve it, the server reads it at start. The stylesheet stays linked: the server sends these
// pages as they are filled in, uncompressed, and the stylesheet comes compressed and cached.
const results = new URL('.quote-result/', dist);
mkdirSync(results, { recursive: true });
for (const variant of QUOTE_RESULT_VARIANTS) {
  const page = await renderQuoteResultPage(shell, variant);
  writeFileSync(new URL(`${variant}.html`, results), page);
  console.log(
    `prerendered the quote result '${variant}' -> dist/.quote-result/${variant}.html (${(page.length / 1024).toFixed(1)} KB)`,
  );
}
rmSync(ssrDir, { recursive: true, force: true });
