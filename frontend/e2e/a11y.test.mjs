// axe-core (WCAG 2.2 A/AA and best practices) on every screen: the landing page with the side
// menu closed and open, the privacy notice, the licences page and the 404 page, at phone and
// desktop sizes.
import { VIEWPORTS } from './support/browser.mjs';
import { animationsDone, axeViolations, gotoHydrated, revealAll } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const shared = sharedServer();

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`axe at ${viewport.width}x${viewport.height}`, () => {
    test('landing page: zero violations', async ({ openPage }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      await revealAll(page);
      expect(await axeViolations(page)).toEqual([]);
      // Scrolled: the header is solid white over the content.
      await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
      await expect(page.locator('header').first()).toHaveAttribute('data-solid', 'true');
      expect(await axeViolations(page)).toEqual([]);
    });

    if (size === 'mobile') {
      test('landing page with the side menu open: zero violations', async ({ openPage }) => {
        const { page } = await openPage({ viewport });
        await gotoHydrated(page, shared.server.url);
        await page.getByRole('button', { name: 'Open Menu' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await animationsDone(page.getByRole('dialog'));
        expect(await axeViolations(page)).toEqual([]);
      });
    }

    for (const [path, heading] of [
      ['/privacy', 'Privacy Notice'],
      ['/licences', 'Licenses'],
    ]) {
      test(`${path}: zero violations`, async ({ openPage }) => {
        const { page } = await openPage({ viewport });
        await page.goto(new URL(path, shared.server.url).href);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await animationsDone(page.getByRole('banner'));
        expect(await axeViolations(page)).toEqual([]);
      });
    }

    test('404 page: zero violations', async ({ openPage }) => {
      // Chromium logs the page's own 404 status as a failed load.
      const { page } = await openPage({
        viewport,
        expectErrors: [/status of 404 .*\/missing-page:/],
      });
      await page.goto(new URL('/missing-page', shared.server.url).href);
      await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
      // The header's links fade in (docs/product.md §4): axe judges their contrast once they are opaque.
      await animationsDone(page.getByRole('banner'));
      expect(await axeViolations(page)).toEqual([]);
    });
  });
}
