// axe-core (WCAG 2.2 A/AA and best practices) on every screen: the landing page with the side
// menu closed and open, the privacy notice, the licences page and the 404 page, at phone and
// desktop sizes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, VIEWPORTS } from './support/browser.mjs';
import { animationsDone, axeViolations, gotoHydrated, revealAll } from './support/landing.mjs';
import { sharedSite } from './support/site.mjs';

const site = sharedSite();

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  describe(`axe at ${viewport.width}x${viewport.height}`, () => {
    test('landing page: zero violations', async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      await revealAll(page);
      assert.deepEqual(await axeViolations(page), []);
      // Scrolled: the header is solid white over the content.
      await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
      await page.waitForFunction(() => document.querySelector('header').dataset.solid === 'true');
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });

    if (size === 'mobile') {
      test('landing page with the side menu open: zero violations', async () => {
        const { page, context } = await openPage(site.browser, { viewport });
        await gotoHydrated(page, site.server.url);
        await page.getByRole('button', { name: 'Open Menu' }).click();
        await page.getByRole('dialog').waitFor();
        await animationsDone(page.getByRole('dialog'));
        assert.deepEqual(await axeViolations(page), []);
        await context.close();
      });
    }

    for (const [path, heading] of [
      ['/privacy', 'Privacy Notice'],
      ['/licences', 'Licenses'],
    ]) {
      test(`${path}: zero violations`, async () => {
        const { page, context } = await openPage(site.browser, { viewport });
        await page.goto(new URL(path, site.server.url).href);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await animationsDone(page.getByRole('banner'));
        assert.deepEqual(await axeViolations(page), []);
        await context.close();
      });
    }

    test('404 page: zero violations', async () => {
      // Chromium logs the page's own 404 status as a failed load.
      const { page, context } = await openPage(site.browser, {
        viewport,
        expectErrors: [/status of 404 .*\/missing-page:/],
      });
      await page.goto(new URL('/missing-page', site.server.url).href);
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      // The header's links fade in (docs/product.md §4): axe judges their contrast once they are opaque.
      await animationsDone(page.getByRole('banner'));
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });
  });
}
