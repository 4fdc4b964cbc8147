// 'Obtener Cotización' (header and side menu), 'Get Started' and 'Become a Member' lead to the
// quote form and focus its product field, at phone and desktop sizes, with and without
// JavaScript, against the real built site and server.
import { VIEWPORTS } from './support/browser.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const shared = sharedServer();

/** An href that leads to the landing page's form: whatever it resolves against, its hash is #quote. */
const TO_THE_FORM = /^[^#]*#quote$/;

/** Resolves once the product field has focus and is wholly on screen (any smooth scroll done). */
async function formReached(page) {
  const inView = () => {
    const field = document.activeElement;
    if (field?.id !== 'quote') return false;
    const box = field.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  };
  // Polled from here: a page without JavaScript runs no timers or animation frames for
  // page.waitForFunction.
  await expect
    .poll(() => page.evaluate(inView), {
      timeout: 10_000,
      message: 'the product field focused and on screen',
      intervals: [100],
    })
    .toBe(true);
  const product = page.getByRole('combobox', { name: 'Product' });
  await expect(product, 'the Product field has focus').toBeFocused();
  await expect(page).toHaveURL((url) => url.hash === '#quote');
}

/** Each call to action as a visitor finds it at the given size; `menu` ones are in the side menu. */
function callsToAction(mobile, javaScript) {
  const header = mobile
    ? javaScript
      ? [{ name: 'Obtener Cotización', menu: true }]
      : [] // without JavaScript the side menu cannot open, and the header's link is hidden on phones
    : [{ name: 'Obtener Cotización', within: 'banner' }];
  return [...header, { name: 'Get Started' }, { name: 'Become a Member' }];
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  const mobile = size === 'mobile';
  for (const javaScript of [true, false]) {
    test.describe(`calls to action at ${viewport.width}x${viewport.height}, ${javaScript ? 'with' : 'without'} JavaScript`, () => {
      for (const cta of callsToAction(mobile, javaScript)) {
        test(`'${cta.name}'${cta.menu ? ' in the side menu' : ''} reaches the form and focuses the product field`, async ({
          openPage,
        }) => {
          const { page, context, errors } = await openPage({
            viewport,
            javaScriptEnabled: javaScript,
          });
          if (javaScript) await gotoHydrated(page, shared.server.url);
          else await page.goto(shared.server.url);
          let scope = cta.within ? page.getByRole(cta.within) : page;
          if (cta.menu) {
            await page.getByRole('button', { name: 'Open Menu' }).click();
            scope = page.getByRole('dialog');
          }
          const link = scope.getByRole('link', { name: cta.name, exact: true });
          await expect(link, 'a real link to the form').toHaveAttribute('href', TO_THE_FORM);
          await link.click();
          if (cta.menu) await expect(page.getByRole('dialog')).not.toBeAttached();
          await formReached(page);
          expect(errors).toEqual([]);
          await context.close();
        });
      }
    });
  }
}

test.describe('scrolling to the form', () => {
  test('is smooth, and instant under prefers-reduced-motion', async ({ openPage }) => {
    for (const [reducedMotion, behavior] of [
      ['no-preference', 'smooth'],
      ['reduce', 'auto'],
    ]) {
      const { page, context } = await openPage({ reducedMotion });
      await page.goto(shared.server.url);
      await expect(page.locator('html')).toHaveCSS('scroll-behavior', behavior);
      await context.close();
    }
  });

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`from the 404 page at ${viewport.width}x${viewport.height}, the header's link leads to the landing page's form`, async ({
      openPage,
    }) => {
      // Chromium logs the page's own 404 status as a failed load.
      const { page, context, errors } = await openPage({
        viewport,
        expectErrors: [/status of 404 .*\/missing-page:/],
      });
      await page.goto(new URL('/missing-page', shared.server.url).href);
      let scope = page.getByRole('banner');
      if (size === 'mobile') {
        // The header island is live once React owns its element (no form here to mark it).
        await page.waitForFunction(() =>
          Object.keys(document.querySelector('header')).some((key) =>
            key.startsWith('__reactFiber'),
          ),
        );
        await page.getByRole('button', { name: 'Open Menu' }).click();
        scope = page.getByRole('dialog');
      }
      await scope.getByRole('link', { name: 'Obtener Cotización' }).click();
      await page.waitForURL(new URL('/#quote', shared.server.url).href);
      await formReached(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
