// Helpers for the landing page's browser tests.
import AxeBuilder from '@axe-core/playwright';
import { afterFrames } from './frames.mjs';

/**
 * Opens the page and waits until every island is live, so clicks work. The islands below the fold
 * hydrate as they come near the viewport (islands/mount.tsx), so each is brought into view once,
 * as a visitor scrolling down would, then the page goes back to the top.
 */
export async function gotoHydrated(page, url) {
  const response = await page.goto(url);
  // The header hydrates at once; by then every island below the fold is waiting for the viewport.
  await page.locator('[data-island="header"][data-live]').waitFor({ state: 'attached' });
  for (const island of await page.$$('[data-island]')) {
    await island.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.waitForFunction((el) => el.hasAttribute('data-live'), island);
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.locator('form[data-hydrated]').waitFor();
  await page.waitForFunction(() => document.querySelector('header').dataset.solid === 'false');
  return response;
}

/** Picks a product in the quote form's dropdown (the platform's own `<select>`), as a visitor does. */
export async function chooseProduct(page, label) {
  await page.getByRole('combobox', { name: 'Product' }).selectOption({ label });
}

/** Scrolls through the whole page so every scroll-triggered entrance has played, then back up. */
export async function revealAll(page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = await page.evaluate(() => window.innerHeight / 2);
  for (let y = 0; y <= height; y += step) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
    // Two frames: the intersection observers see each step before the next one scrolls on.
    await afterFrames(page, 2);
  }
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-reveal]')].every(
      (el) => getComputedStyle(el).opacity === '1',
    ),
  );
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

/** axe-core against WCAG 2.0–2.2 A and AA; returns the violations, summarised for the message. */
export async function axeViolations(page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/** Resolves once the element's finite CSS animations and its descendants' (the side menu sliding in, the header's links fading in) have finished. */
export function animationsDone(locator) {
  // Endless ones (the partner strip) never finish.
  return locator.evaluate((el) =>
    Promise.all(
      el
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ),
  );
}
