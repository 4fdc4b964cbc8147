// The do-not-contact page (/opt-out, /es/opt-out) on a phone's screen, in both languages, with
// JavaScript on and off: the page fits the screen, its form posts, the confirmation shows, a
// wrong post keeps what was typed, and axe finds nothing (backend/src/routes/opt_out/).
import { fitsTheScreen, VIEWPORTS } from './support/browser.mjs';
import { axeViolations } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const LANGUAGES = [
  {
    prefix: '',
    title: 'Do not contact me',
    email: 'Email address',
    phone: 'Phone number',
    done: 'You are on our do-not-contact list',
    missing: 'Please enter your e-mail address or your phone number.',
    footer: 'Do not contact me',
  },
  {
    prefix: '/es',
    title: 'No me contacten',
    email: 'Correo electrónico',
    phone: 'Número de teléfono',
    done: 'Está en nuestra lista de no contactar',
    missing: 'Escriba su correo electrónico o su número de teléfono.',
    footer: 'No me contacten',
  },
];

const SCRIPT = [
  { name: 'with JavaScript on', options: {} },
  { name: 'with JavaScript off', options: { javaScriptEnabled: false } },
];

/** axe runs as a script in the page, so only where scripts run; the HTML is the same either way. */
const axeWhereScriptsRun = async (page, script) => {
  if (script.options.javaScriptEnabled !== false) expect(await axeViolations(page)).toEqual([]);
};

test.describe('the do-not-contact page at 390x844', () => {
  const shared = sharedServer();

  for (const text of LANGUAGES) {
    for (const script of SCRIPT) {
      test(`${text.prefix || '/en'} ${script.name}: the form posts and the confirmation shows`, async ({
        openPage,
      }) => {
        const { server } = shared;
        const { page, context } = await openPage({
          viewport: VIEWPORTS.mobile,
          ...script.options,
        });
        // The footer of the privacy notice leads there.
        await page.goto(`${server.url}${text.prefix}/privacy`);
        const footerLink = page.locator('footer').getByRole('link', { name: text.footer });
        await expect(footerLink).toHaveAttribute('href', `${text.prefix}/opt-out`);
        await expect(
          page.locator('article').locator(`a[href="${text.prefix}/opt-out"]`),
        ).toHaveCount(1);
        await footerLink.click();
        await expect(page).toHaveURL(`${server.url}${text.prefix}/opt-out`);
        await expect(page.getByRole('heading', { level: 1, name: text.title })).toBeVisible();
        await expect.poll(() => fitsTheScreen(page)).toBe(true);
        await axeWhereScriptsRun(page, script);

        const unique = `${text.prefix ? 'es' : 'en'}-${script.options.javaScriptEnabled === false ? 'off' : 'on'}`;
        await page.getByLabel(text.email).fill(`opt.${unique}@example.com`);
        await page.getByLabel(text.phone).fill('(555) 555-0199');
        await page.getByRole('button', { name: text.title }).click();
        await expect(page).toHaveURL(`${server.url}${text.prefix}/opt-out/done`);
        await expect(page.getByRole('heading', { level: 1, name: text.done })).toBeVisible();
        await expect.poll(() => fitsTheScreen(page)).toBe(true);
        await axeWhereScriptsRun(page, script);
        await context.close();
      });

      test(`${text.prefix || '/en'} ${script.name}: a post with neither field says so`, async ({
        openPage,
      }) => {
        const { server } = shared;
        const { page, context } = await openPage({
          viewport: VIEWPORTS.mobile,
          // Chromium logs the 422 answer as a console error.
          allowErrors: [/status of 422/],
          ...script.options,
        });
        await page.goto(`${server.url}${text.prefix}/opt-out`);
        await page.getByRole('button', { name: text.title }).click();
        await expect(page.getByRole('alert')).toHaveText(text.missing);
        await expect(page.getByLabel(text.email)).toHaveAttribute('aria-invalid', 'true');
        await expect.poll(() => fitsTheScreen(page)).toBe(true);
        await axeWhereScriptsRun(page, script);
        await context.close();
      });
    }
  }
});
