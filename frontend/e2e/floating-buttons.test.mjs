// The voice region's chat and voice buttons float over the bottom right corner of a phone's
// screen. Scrolled to the page's end, where nothing moves from under them any more, they must
// cover no text: not the Medicare disclaimer (a text the rules want prominent) nor any other text
// of the last section and the footer. Nor, scrolled so the disclaimer under the quote form ends
// at the screen's bottom, any line of that disclaimer (measured line by line). Voice is
// configured, as the buttons show only then; nothing is tapped, so the provider's SDK is never
// fetched.
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

/**
 * In the page, scrolled so the disclaimer beside the quote form ends at the screen's bottom: the
 * floating buttons' boxes and the box of each line of the disclaimer's text.
 */
function disclaimerLinesAtTheBottom() {
  const aside = document.querySelector('aside[aria-labelledby="medicare-disclaimer"]');
  window.scrollTo({
    top: window.scrollY + aside.getBoundingClientRect().bottom - window.innerHeight,
    behavior: 'instant',
  });
  const walker = document.createTreeWalker(aside, NodeFilter.SHOW_TEXT);
  const lines = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const { left, top, right, bottom } of range.getClientRects())
      if (right > left)
        lines.push({ text: node.textContent.trim().slice(0, 40), left, top, right, bottom });
  }
  const buttons = [...document.querySelectorAll('[data-island="voice"] button')].map((button) => {
    const { left, top, right, bottom } = button.getBoundingClientRect();
    return { name: button.getAttribute('aria-label'), left, top, right, bottom };
  });
  return {
    asideBottom: aside.getBoundingClientRect().bottom,
    viewportHeight: window.innerHeight,
    lines,
    buttons,
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

  for (const path of ['/', '/es/']) {
    test(`with the disclaimer under the form at the bottom of ${path} at 390x844, they cover none of its lines`, async ({
      openPage,
    }) => {
      const { page, context } = await openPage({
        viewport: VIEWPORTS.mobile,
        hasTouch: true,
        isMobile: true,
      });
      await gotoHydrated(page, new URL(path, shared.server.url).href);
      await expect(page.locator('[data-island="voice"] button').nth(1)).toBeVisible();
      // Scrolled to, the card comes in; then the buttons' and the card's animations rest (the
      // partners' strip runs on, elsewhere).
      await page.locator('aside[aria-labelledby="medicare-disclaimer"]').scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        document
          .getAnimations()
          .filter((a) =>
            a.effect?.target?.closest?.(
              '[data-island="voice"], section[aria-labelledby="quote-heading"]',
            ),
          )
          .every((a) => a.playState !== 'running'),
      );
      const end = await page.evaluate(disclaimerLinesAtTheBottom);
      await page.screenshot({
        path: join(outputDir, `floating-buttons-disclaimer-${path === '/' ? 'en' : 'es'}.png`),
      });
      expect(
        Math.abs(end.asideBottom - end.viewportHeight),
        'the disclaimer ends at the bottom',
      ).toBeLessThan(2);
      expect(end.buttons).toHaveLength(2);
      expect(end.lines.length, 'the disclaimer has lines').toBeGreaterThan(3);
      const covered = end.buttons.flatMap((button) =>
        end.lines
          .filter((line) => overlap(button, line))
          .map((line) => `${button.name} covers "${line.text}"`),
      );
      expect(covered).toEqual([]);
      await context.close();
    });
  }
});
