// The booking page (/book, /es/book) on a phone's screen, in both languages, with JavaScript on
// and off: the page the server writes fits the screen, a wrong post is answered under its field
// with what was typed kept, a booking reaches the confirmation, and its time is no longer offered
// (backend/src/routes/booking/). The example content keeps booking off, so the built site is
// copied with `booking` turned on in its server facts (open all day in UTC, no notice).
import { BOOKING_WORDS as WORDS, siteWithBooking } from './support/booking-site.mjs';
import { fitsTheScreen, VIEWPORTS } from './support/browser.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const SCRIPT = [
  { name: 'with JavaScript on', options: {} },
  { name: 'with JavaScript off', options: { javaScriptEnabled: false } },
];

test.describe('the booking page at 390x844', () => {
  const shared = sharedServer({ staticDir: siteWithBooking() });

  for (const [language, prefix] of [
    ['en', ''],
    ['es', '/es'],
  ]) {
    const w = WORDS[language];
    for (const script of SCRIPT) {
      test(`${prefix || '/en'} ${script.name}: a wrong post keeps what was typed, a booking is confirmed`, async ({
        openPage,
      }) => {
        const { server } = shared;
        const { page } = await openPage({
          viewport: VIEWPORTS.mobile,
          ...script.options,
          // Chromium logs the 422 answer as a console error.
          expectErrors: [/status of 422/],
        });
        await page.goto(`${server.url}${prefix}/book`);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.title);
        await expect(page.getByText(w.zone)).toBeVisible();
        await expect(page.getByText(w.statement)).toBeVisible();
        expect(await fitsTheScreen(page)).toBe(true);

        // Without a product to discuss: the message under it, the name kept.
        const slots = page.locator('input[name="slot"]');
        const chosen = await slots.nth(language === 'en' ? 2 : 4).getAttribute('value');
        await slots.nth(language === 'en' ? 2 : 4).check();
        await page.getByLabel(w.name).fill('Ana Ruiz');
        await page.getByLabel(w.email).fill(`ana-${language}-${script.name.length}@example.com`);
        await page.getByRole('button', { name: w.title }).click();
        await expect(page.getByRole('alert')).toHaveText(w.soaError);
        await expect(page.getByLabel(w.name)).toHaveValue('Ana Ruiz');
        expect(await fitsTheScreen(page)).toBe(true);

        // With one: the confirmation, and the time no longer offered.
        const again = page.locator(`input[name="slot"][value="${chosen}"]`);
        if ((await again.count()) === 1) await again.check();
        else await page.locator('input[name="slot"]').first().check();
        await page.getByLabel(w.soa).check();
        await page.getByRole('button', { name: w.title }).click();
        await expect(page).toHaveURL(`${server.url}${prefix}/book/done`);
        await expect(page.getByText(w.done)).toBeVisible();
        await page.goto(`${server.url}${prefix}/book`);
        await expect(page.locator(`input[name="slot"][value="${chosen}"]`)).toHaveCount(0);
      });
    }
  }
});
