// What the first paint needs is in the first bytes: the prerendered HTML of the landing and 404
// pages against the real built site and server.
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { gotoHydrated } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

/** TCP's initial congestion window (10 segments): what arrives in the first round trip. */
const FIRST_ROUND_TRIP_BYTES = 14 * 1024;
/** The interactive parts, in page order; everything else must stay static HTML. */
const ISLANDS = [
  'particles',
  'header',
  'partners',
  'testimonials',
  'quote-form',
  'toaster',
  'voice',
];

const shared = sharedServer();

const pageHtml = async (path) => (await fetch(new URL(path, shared.server.url))).text();

test.describe('first paint', () => {
  for (const path of ['/', '/missing-page']) {
    test(`${path}: no stylesheet blocks rendering; the CSS is inline in the head`, async () => {
      const html = await pageHtml(path);
      expect(html).not.toMatch(/<link\b[^>]*rel="stylesheet"/);
      const head = html.slice(0, html.indexOf('</head>'));
      const styles = [...head.matchAll(/<style>(.*?)<\/style>/gs)].map(([, css]) => css);
      expect(
        styles.some((css) => css.includes('.bg-brand-700{')),
        'the page styles are in the head',
      ).toBeTruthy();
    });
  }

  test("the first screen's HTML, styles included, is within the first 14 KB compressed", async () => {
    const html = await pageHtml('/');
    const heroEnd =
      html.indexOf('</section>', html.indexOf('id="hero-heading"')) + '</section>'.length;
    const firstScreen = Buffer.from(html.slice(0, heroEnd));
    for (const [encoding, size] of [
      ['gzip', gzipSync(firstScreen, { level: 9 }).length],
      ['br', brotliCompressSync(firstScreen).length],
    ]) {
      expect(size, `${encoding}: ${size} bytes`).toBeLessThanOrEqual(FIRST_ROUND_TRIP_BYTES);
    }
  });

  test('below the fold every image is lazy, and every image has its size', async () => {
    const html = await pageHtml('/');
    const heroEnd = html.indexOf('</section>', html.indexOf('id="hero-heading"'));
    const images = [...html.matchAll(/<img\b[^>]*>/g)];
    const below = images.filter((match) => match.index > heroEnd);
    expect(below.length, 'partner logos and the footer logo').toBeGreaterThanOrEqual(9);
    for (const [img] of images) expect(img, img).toMatch(/width="\d+"[^>]*height="\d+"/);
    for (const [img] of below) expect(img, img).toMatch(/loading="lazy"/);
  });

  test('the testimonial portraits are in the HTML as lazy images with their size (56 px, content.ts)', async () => {
    const html = await pageHtml('/');
    const portraits = [...html.matchAll(/<img\b[^>]*src="\/images\/portraits\/[^"]+"[^>]*>/g)].map(
      ([img]) => img,
    );
    expect(portraits).toHaveLength(3);
    for (const img of portraits) {
      expect(img, img).toMatch(/loading="lazy"/);
      expect(img, img).toMatch(/decoding="async"/);
      expect(img, img).toMatch(/width="56" height="56"/);
      expect(img, img).toMatch(/alt="[^"]+"/);
    }
  });
});

test.describe('islands', () => {
  test('React and the islands load only after the first contentful paint', async ({ openPage }) => {
    const { page } = await openPage();
    await gotoHydrated(page, shared.server.url);
    const { paint, scripts } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/.*\.js$/.test(entry.name))
        .map((entry) => ({ name: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    const html = await pageHtml('/');
    const firstLoad = new Set(
      [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(([, path]) => path),
    );
    const later = scripts.filter(({ name }) => !firstLoad.has(name));
    expect(
      later.some(({ name }) => /\/mount-/.test(name)),
      "the islands' mounting (with React DOM) is among them",
    ).toBeTruthy();
    // A chunk the entry shares with an island can carry React with it onto the first paint's path.
    for (const path of firstLoad) {
      const code = await (await fetch(new URL(path, shared.server.url))).text();
      expect(code, `${path}, which the HTML loads, holds React DOM`).not.toMatch(
        /__reactContainer\$/,
      );
    }
    for (const { name, start } of later)
      expect(start, `${name} requested at ${start} ms, first paint at ${paint} ms`).toBeGreaterThan(
        paint,
      );
  });

  test('the static sections carry no hydration markers; only the islands do', async ({
    openPage,
  }) => {
    const { page } = await openPage({ javaScriptEnabled: false });
    await page.goto(shared.server.url);
    const found = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
      const outside = [];
      while (walker.nextNode())
        if (!walker.currentNode.parentElement.closest('[data-island]'))
          outside.push(walker.currentNode.data);
      const staticParts = [
        '#hero-heading',
        '#plans-heading',
        '#about-heading',
        '#membership-heading',
        '#quote-heading',
        'footer',
      ];
      return {
        outside,
        islands: [...document.querySelectorAll('[data-island]')].map((el) => el.dataset.island),
        inIsland: staticParts.filter((selector) =>
          document.querySelector(selector).closest('[data-island]'),
        ),
      };
    });
    expect(found.outside, 'React markers outside the islands').toEqual([]);
    expect(found.islands).toEqual(ISLANDS);
    expect(found.inIsland, 'static parts inside an island').toEqual([]);
  });

  test('in the browser React runs the islands and never touches the static sections', async ({
    openPage,
  }) => {
    // Page and console errors fail the test (the openPage fixture).
    const { page } = await openPage();
    await gotoHydrated(page, shared.server.url);
    await expect(page.locator('header[data-solid]')).toBeVisible();
    const owned = await page.evaluate(() => {
      const isReact = (el) => Object.keys(el).some((key) => key.startsWith('__reactFiber'));
      return {
        header: isReact(document.querySelector('header')),
        form: isReact(document.querySelector('form')),
        hero: isReact(document.querySelector('#hero-heading')),
        plans: isReact(document.querySelector('#plans-heading')),
        footer: isReact(document.querySelector('footer')),
      };
    });
    expect(owned).toEqual({ header: true, form: true, hero: false, plans: false, footer: false });
  });
});
