// "Ask for written consent" (issue 56.3) on a phone (390x844), against the release backend, a
// real SMTP server (tests/support/smtp.mjs) and Chromium, on a copy of the built site with the
// phone field on. The broker's button on a lead's page in the inbox e-mails the visitor; the
// link in that e-mail opens the consent page, in English and in Spanish, with JavaScript on and
// off: the exact consent text of its language, the number's last four digits, an unticked box,
// no horizontal overflow; sending without the box says to tick it and records nothing; with it,
// the lead reads written consent given on the consent page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSmtpServer } from '../../tests/support/smtp.mjs';
import { outputDir } from './support/browser.mjs';
import { ADMIN_PASSWORD_HASH, signIn } from './support/inbox.mjs';
import { axeViolations } from './support/landing.mjs';
import { PHONE_CONSENT, postLead, siteWithPhoneAndZip } from './support/phone-site.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const PHONE_SIZE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** As `openssl rand -hex 32` makes one (ADMIN_TOKEN needs at least 32 characters). */
const ADMIN_TOKEN = 'e2e0consent0page0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6070';

const WORDS = {
  en: {
    tick: 'Tick the box to agree. Nothing was recorded.',
    given: 'Thank you: your permission is recorded',
    ending: 'ending in 0123',
  },
  es: {
    tick: 'Marque la casilla para aceptar. No se registró nada.',
    given: 'Gracias: su permiso quedó registrado',
    ending: 'terminado en 0123',
  },
};

test.describe('asking for written consent, on a phone', () => {
  let server;
  let site;
  let smtp;
  /** Each language's disclosure, as the build wrote it for the form. */
  const disclosure = {};

  test.beforeAll(async () => {
    site = siteWithPhoneAndZip([]);
    disclosure.en = PHONE_CONSENT;
    disclosure.es = JSON.parse(
      readFileSync(join(site.dir, '.site/es/site.json'), 'utf8'),
    ).phoneConsent;
    smtp = await startSmtpServer();
    server = await startServer({
      staticDir: site.dir,
      env: { ADMIN_PASSWORD_HASH, ADMIN_TOKEN, ...smtp.env },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    site?.dispose();
  });

  /** The admin API, as a script with the token. */
  async function admin(method, path) {
    const response = await fetch(new URL(path, server.url), {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  }

  /** The consent page's path in the e-mail to `email`, waited for. */
  async function linkTo(email) {
    let mail;
    await expect
      .poll(() => (mail = smtp.messages().find((m) => m.rcpt_tos.includes(email))), {
        message: `an e-mail to ${email}`,
      })
      .toBeTruthy();
    const line = mail.text.split('\n').find((l) => l.includes('/consent/'));
    return new URL(line.trim()).pathname;
  }

  for (const language of ['en', 'es']) {
    for (const javaScript of [true, false]) {
      test(`the page in ${language}, JavaScript ${javaScript ? 'on' : 'off'}: the exact text, an unticked box, and the box ticked records it`, async ({
        openPage,
      }) => {
        const email = `consent.${language}.${javaScript ? 'js' : 'nojs'}@example.com`;
        const id = await postLead(server.url, {
          product: 'family',
          email,
          phone: '(555) 555-0123',
          may_call: false,
          zip: '60614',
          lang: language,
        });
        await admin('POST', `/api/admin/quote-requests/${id}/consent-request`);
        const path = await linkTo(email);
        expect(path.startsWith(language === 'es' ? '/es/consent/' : '/consent/'), path).toBe(true);

        // The page answers a post without the box 422, which the browser reports as a failed load.
        const { page } = await openPage({
          ...PHONE_SIZE,
          javaScriptEnabled: javaScript,
          allowErrors: [/status of 422 \(Unprocessable Entity\)/],
        });
        await page.goto(new URL(path, server.url).href);
        await expect(page.locator('[data-consent-text]')).toHaveText(disclosure[language]);
        await expect(page.getByText(WORDS[language].ending)).toBeVisible();
        const box = page.getByRole('checkbox');
        await expect(box).not.toBeChecked();
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          'no horizontal overflow',
        ).toBe(true);
        // axe runs as a script in the page: only with JavaScript on.
        if (javaScript) expect(await axeViolations(page), 'consent page').toEqual([]);
        await page.screenshot({
          path: join(outputDir, `consent-page-${language}-${javaScript ? 'js' : 'nojs'}.png`),
          fullPage: true,
        });

        await page.getByRole('button').click();
        await expect(page.getByRole('alert')).toHaveText(WORDS[language].tick);
        expect((await admin('GET', `/api/admin/quote-requests/${id}`)).call_consent).toBeNull();

        await page.getByRole('checkbox').check();
        await page.getByRole('button').click();
        await expect(page.getByRole('heading', { name: WORDS[language].given })).toBeVisible();
        const lead = await admin('GET', `/api/admin/quote-requests/${id}`);
        expect(lead.call_consent).toBe('written');
        expect(lead.written_later.channel).toBe('consent_page');
      });
    }
  }

  test('the inbox button asks the visitor by e-mail, and is gone once consent is written', async ({
    openPage,
  }) => {
    const email = 'inbox.button@example.com';
    const id = await postLead(server.url, {
      product: 'medicare',
      email,
      phone: '+1 555 555 0199',
      may_call: false,
      zip: '60614',
    });
    const { page } = await openPage(PHONE_SIZE);
    await signIn(page, server.url);
    await page.goto(new URL(`/admin#lead/${id}`, server.url).href);
    await expect(page.getByRole('heading', { name: email })).toBeVisible();
    await page.getByRole('button', { name: 'Ask for written consent' }).click();
    await expect(
      page.getByText(`Asked for written consent: an e-mail went to ${email}`, { exact: false }),
    ).toBeVisible();
    const path = await linkTo(email);
    const consent = await fetch(new URL(path, server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body: 'agree=yes',
    });
    expect(consent.status).toBe(200);
    await page.reload();
    await expect(page.getByRole('heading', { name: email })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Do not contact' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ask for written consent' })).toHaveCount(0);
  });
});
