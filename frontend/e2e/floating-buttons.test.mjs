// The voice region's chat and voice buttons float over the bottom right corner of a phone's
// screen. Scrolled to the page's end, where nothing moves from under them any more, they must
// cover no text: not the Medicare disclaimer (a text the rules want prominent) nor any other text
// of the last section and the footer. Voice is configured, as the buttons show only then; nothing
// is tapped, so the provider's SDK is never fetched.
import { join } from 'node:path';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-e2e', VAPI_ASSISTANT_ID: 'asst-e2e' };

const shared = sharedServer({ env: VOICE_ENV });

/**
 * In the page: the floating buttons' boxes, and every box in the last section and the footer that
 * holds text (an element with a text node of its own), with the disclaimers' boxes named.
 */
function boxesAtTheEnd() {
  const box = (element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  };
  const label = (element) =>
    `<${element.tagName.toLowerCase()}> "${element.textContent.trim().slice(0, 40)}"`;
  const buttons = [...document.querySelectorAll('[data-island="voice"] button')].map((button) => ({
    name: button.getAttribute('aria-label'),
    ...box(button),
  }));
  const last = [...document.querySelectorAll('main > section')].at(-1);
  const texts = [last, document.querySelector('footer')].flatMap((part) =>
    [...part.querySelectorAll('*')]
      .filter((element) =>
        [...element.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim(),
        ),
      )
      .map((element) => ({ text: label(element), ...box(element) })),
  );
  const disclaimers = [
    ...document.querySelectorAll('aside[aria-labelledby="medicare-disclaimer"], footer p'),
  ]
    .filter((element) => element.textContent.includes('Medicare.gov'))
    .map((element) => ({ text: `the disclaimer ${label(element)}`, ...box(element) }));
  return {
    buttons,
    texts: [...disclaimers, ...texts],
    disclaimers,
    viewportHeight: window.innerHeight,
    atTheEnd:
      Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight,
  };
}

const overlap = (a, b) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test.describe('the floating voice and chat buttons on a phone', () => {
  for (const path of ['/', '/es/']) {
    test(`scrolled to the end of ${path} at 390x844, they cover no text`, async ({ openPage }) => {
      const { page, context } = await openPage({
        viewport: VIEWPORTS.mobile,
        hasTouch: true,
        isMobile: true,
      });
      await gotoHydrated(page, new URL(path, shared.server.url).href);
      const buttons = page.locator('[data-island="voice"] button');
      await expect(buttons.nth(1)).toBeVisible();
      // Their entrance moves them a few pixels; the check is of where they come to rest.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-island="voice"] button')].every(
          (button) => !button.getAnimations().some((a) => a.playState === 'running'),
        ),
      );
      await page.evaluate(() =>
        window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
      );
      await page.waitForFunction(
        () =>
          Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight,
      );
      const end = await page.evaluate(boxesAtTheEnd);
      await page.screenshot({
        path: join(outputDir, `floating-buttons-${path === '/' ? 'en' : 'es'}.png`),
      });

      expect(end.atTheEnd, 'scrolled to the end').toBe(true);
      expect(end.buttons, 'the chat and voice buttons').toHaveLength(2);
      for (const button of end.buttons)
        expect(button.bottom > button.top && button.bottom <= end.viewportHeight, button.name).toBe(
          true,
        );
      // The footer's small print is on screen here, so the check is not of text out of view.
      expect(
        end.disclaimers.some((d) => d.top >= 0 && d.bottom <= end.viewportHeight),
        `a Medicare disclaimer in view: ${JSON.stringify(end.disclaimers)}`,
      ).toBe(true);
      const covered = end.buttons.flatMap((button) =>
        end.texts
          .filter((text) => overlap(button, text))
          .map((text) => `${button.name} covers ${text.text}`),
      );
      expect(covered).toEqual([]);
      await context.close();
    });
  }
});
