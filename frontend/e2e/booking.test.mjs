// The booking page (/book, /es/book) on a phone's screen, in both languages, with JavaScript on
// and off: the page the server writes fits the screen, a wrong post is answered under its field
// with what was typed kept, a booking reaches the confirmation, and its time is no longer offered
// (backend/src/routes/booking/). The example content keeps booking off, so the built site is
// copied with `booking` turned on in its server facts (open all day in UTC, no notice).
import { siteWithBooking } from './support/booking-site.mjs';
import { VIEWPORTS } from './support/browser.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const WORDS = {
  en: {
    title: 'Book a call',
    name: 'Full name',
    email: 'Email',
    soa: 'Part D',
    statement: 'The agent may be paid based on your enrollment.',
    zone: 'Times are in UTC.',
    done: 'We will call you.',
    errors: { slot: 'Choose a time', name: 'Write your name', email: 'Write an email' },
    soaError: 'Choose what we may talk about',
    taken: 'That time was just taken.',
  },
  es: {
    title: 'Reserve una llamada',
    name: 'Nombre completo',
    email: 'Correo electrónico',
    soa: 'Parte D',
    statement: 'El agente puede recibir un pago según su inscripción.',
    zone: 'Horas en UTC.',
    done: 'Le llamaremos.',
    errors: { slot: 'Elija una hora', name: 'Escriba su nombre', email: 'Escriba un correo' },
    soaError: 'Elija de qué podemos hablar',
    taken: 'Esa hora ya está ocupada.',
  },
};

const SCRIPT = [
  { name: 'with JavaScript on', options: {} },
  { name: 'with JavaScript off', options: { javaScriptEnabled: false } },
];

const fitsTheScreen = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.describe('the booking page at 390x844', () => {
  const shared = sharedServer({ staticDir: siteWithBooking(WORDS) });

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
