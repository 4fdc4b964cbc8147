// What the first paint needs is in the first bytes: the prerendered HTML of the landing and 404
// pages against the real built site and server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { openPage } from './support/browser.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { sharedSite } from './support/site.mjs';

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

const site = sharedSite();

const pageHtml = async (path) => (await fetch(new URL(path, site.server.url))).text();

describe('first paint', () => {
  for (const path of ['/', '/missing-page']) {
    test(`${path}: no stylesheet blocks rendering; the CSS is inline in the head`, async () => {
      const html = await pageHtml(path);
      assert.doesNotMatch(html, /<link\b[^>]*rel="stylesheet"/);
      const head = html.slice(0, html.indexOf('</head>'));
      const styles = [...head.matchAll(/<style>(.*?)<\/style>/gs)].map(([, css]) => css);
      assert.ok(
        styles.some((css) => css.includes('.bg-brand-700{')),
        'the page styles are in the head',
      );
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
      assert.ok(size <= FIRST_ROUND_TRIP_BYTES, `${encoding}: ${size} bytes`);
    }
  });

  test('below the fold every image is lazy, and every image has its size', async () => {
    const html = await pageHtml('/');
    const heroEnd = html.indexOf('</section>', html.indexOf('id="hero-heading"'));
    const images = [...html.matchAll(/<img\b[^>]*>/g)];
    const below = images.filter((match) => match.index > heroEnd);
    assert.ok(below.length >= 9, 'partner logos and the footer logo');
    for (const [img] of images) assert.match(img, /width="\d+"[^>]*height="\d+"/, img);
    for (const [img] of below) assert.match(img, /loading="lazy"/, img);
  });

  test('the testimonial portraits are in the HTML as lazy images with their size (56 px, content.ts)', async () => {
    const html = await pageHtml('/');
    const portraits = [...html.matchAll(/<img\b[^>]*src="\/images\/portraits\/[^"]+"[^>]*>/g)].map(
      ([img]) => img,
    );
    assert.equal(portraits.length, 3);
    for (const img of portraits) {
      assert.match(img, /loading="lazy"/, img);
      assert.match(img, /decoding="async"/, img);
      assert.match(img, /width="56" height="56"/, img);
      assert.match(img, /alt="[^"]+"/, img);
    }
  });
});

describe('islands', () => {
  test('React and the islands load only after the first contentful paint', async () => {
    const { page, context } = await openPage(site.browser);
    await gotoHydrated(page, site.server.url);
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
    assert.ok(
      later.some(({ name }) => /\/mount-/.test(name)),
      "the islands' mounting (with React DOM) is among them",
    );
    // A chunk the entry shares with an island can carry React with it onto the first paint's path.
    for (const path of firstLoad) {
      const code = await (await fetch(new URL(path, site.server.url))).text();
      assert.doesNotMatch(
        code,
        /__reactContainer\$/,
        `${path}, which the HTML loads, holds React DOM`,
      );
    }
    for (const { name, start } of later)
      assert.ok(start > paint, `${name} requested at ${start} ms, first paint at ${paint} ms`);
    await context.close();
  });

  test('the static sections carry no hydration markers; only the islands do', async () => {
    const { page, context } = await openPage(site.browser, { javaScriptEnabled: false });
    await page.goto(site.server.url);
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
    assert.deepEqual(found.outside, [], 'React markers outside the islands');
    assert.deepEqual(found.islands, ISLANDS);
    assert.deepEqual(found.inIsland, [], 'static parts inside an island');
    await context.close();
  });

  test('in the browser React runs the islands and never touches the static sections', async () => {
    const { page, context, errors } = await openPage(site.browser);
    await gotoHydrated(page, site.server.url);
    await page.locator('header[data-solid]').waitFor();
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
    assert.deepEqual(owned, { header: true, form: true, hero: false, plans: false, footer: false });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
