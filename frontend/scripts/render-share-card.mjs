// Renders the Open Graph share card (1200 x 630 PNG; social sites do not take SVG) from
// the content folder (content/site.yaml, or CONTENT_DIR) and its own SVGs, in Debian's Chromium.
// The PNG is written into the content folder, beside the SVGs: rerun this after rebranding.
// Usage: [CONTENT_DIR=…] node scripts/render-share-card.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import { launchBrowser } from '../e2e/support/browser.mjs';
import { repoRoot } from '../e2e/support/server.mjs';

const frontend = join(repoRoot, 'frontend');
const vite = await createServer({
  root: frontend,
  logLevel: 'error',
  server: { middlewareMode: true },
});
const { brand, hero } = await vite.ssrLoadModule('/src/content.ts');
const publicDir = vite.config.publicDir;
await vite.close();

const { shareImage } = brand;
const inline = (src) =>
  `data:image/svg+xml;base64,${readFileSync(join(publicDir, src)).toString('base64')}`;
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const html = `<!doctype html>
<html><head><style>
  html, body { margin: 0; width: ${shareImage.width}px; height: ${shareImage.height}px; overflow: hidden; }
  body { display: flex; align-items: center; gap: 48px; padding: 0 64px; box-sizing: border-box;
         background: linear-gradient(135deg, #e8f4fb 0%, #ffffff 60%); font-family: system-ui, Arial, sans-serif; }
  .text { flex: 1; }
  h1 { margin: 40px 0 20px; font-size: 60px; line-height: 1.1; color: #0f172a; }
  p { margin: 0; font-size: 26px; line-height: 1.4; color: #334155; }
</style></head><body>
  <div class="text">
    <img src="${inline(brand.logo.src)}" width="${brand.logo.width * 1.6}" height="${brand.logo.height * 1.6}" alt="" />
    <h1>${escape(hero.heading)}</h1>
    <p>${escape(brand.tagline)}</p>
  </div>
  <img src="${inline(hero.image.src)}" width="${hero.image.width * 0.95}" height="${hero.image.height * 0.95}" alt="" />
</body></html>`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({
    viewport: { width: shareImage.width, height: shareImage.height },
  });
  await page.setContent(html, { waitUntil: 'load' });
  const path = join(publicDir, shareImage.src);
  await page.screenshot({ path, type: 'png' });
  console.log(`wrote ${path} (${readFileSync(path).length} bytes)`);
} finally {
  await browser.close();
}
