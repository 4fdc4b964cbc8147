// A broker who turns on the quote form's phone and ZIP fields (`phone: optional`, `zip: optional`
// in a copy of content/, one line each): on a phone (390x844), with JavaScript and without, a
// visitor sends a number with the consent box beside it ticked and a ZIP code, and the broker's
// admin API has the number in E.164, the consent, the ZIP code and its state; a number left
// without the box ticked is e-mail only. A bad number is refused under its field in English on /
// and in Spanish on /es/: by the page's rules, by the server's (a post that got past the page),
// and without JavaScript on the result page. The real build, release server and Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { buildSite, contentCopy } from './support/build-site.mjs';
import { axeViolations, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

/** As `openssl rand -hex 32` makes one (ADMIN_TOKEN needs at least 32 characters). */
const ADMIN_TOKEN = 'e2e0phone0and0zip0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f607';
const PHONE = { typed: '(555) 555-0123', e164: '+15555550123' };
/** An area code starting with 1: no US number (NANP). */
const BAD_PHONE = '123-456-7890';
const ZIP = { typed: '60614', state: 'IL' };
const PHONE_VIEWPORT = { viewport: VIEWPORTS.mobile, isMobile: true, hasTouch: true };

let server;
let site;
let content;
/** Each language's texts, as the build read them from the content copy. */
const texts = {};

test.beforeAll(async () => {
  // The build takes a minute or two, more on a busy machine; this timeout is the hook's.
  test.setTimeout(300_000);
  content = contentCopy((yaml) =>
    yaml
      .replace(/^ {4}phone: off$/m, '    phone: optional')
      .replace(/^ {4}zip: off$/m, '    zip: optional'),
  );
  const english = parse(readFileSync(join(content.dir, 'site.yaml'), 'utf8'));
  const spanish = parse(readFileSync(join(content.dir, 'es/site.yaml'), 'utf8'));
  expect(english.quote.fields).toEqual({ phone: 'optional', zip: 'optional' });
  for (const [language, site, path] of [
    ['en', english, '/'],
    ['es', spanish, '/es/'],
  ]) {
    const quote = site.quote;
    texts[language] = {
      path,
      quote,
      consent: quote.phoneConsent.replaceAll('{broker}', english.brand.name),
    };
  }
  site = await buildSite(content.dir);
  server = await startServer({ staticDir: site.dist, env: { ADMIN_TOKEN } });
});
test.afterAll(async () => {
  await server?.stop();
  site?.dispose();
  content?.dispose();
});

/** The leads with this e-mail address, as the broker's admin API lists them. */
async function leadsFor(email) {
  const url = new URL('/api/admin/quote-requests', server.url);
  url.searchParams.set('email', email);
  const response = await fetch(url, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()).quote_requests.filter((lead) => lead.email === email);
}

const field = (page, name) => page.locator(`form[action="/api/quote-requests"] [name="${name}"]`);

/** The field's own message, as assistive technology finds it (aria-describedby). */
const messageOf = (locator) =>
  locator.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
  );

/** Waits until the field's own message is `expected` (null: the field has none). */
const expectMessage = (locator, expected) => expect.poll(() => messageOf(locator)).toBe(expected);

/** Fills the form on the page (landing or result page) as a visitor does on a phone. */
async function fill(page, { product = 'family', email, phone, mayCall = false, zip }) {
  await field(page, 'product').selectOption(product);
  await field(page, 'email').fill(email);
  if (phone !== undefined) await field(page, 'phone').fill(phone);
  if (mayCall) await field(page, 'may_call').tap();
  if (zip !== undefined) await field(page, 'zip').fill(zip);
}

const submitButton = (page, language) =>
  page.getByRole('button', { name: texts[language].quote.submit });

/** The form's layout on a phone: nothing wider than the screen, the box right under the number. */
async function expectFitsThePhone(page, language) {
  const { quote, consent } = texts[language];
  const phone = page.getByRole('textbox', { name: quote.phoneLabel });
  const box = page.getByRole('checkbox', { name: consent });
  const zip = page.getByRole('textbox', { name: quote.zipLabel });
  for (const [name, value] of [
    ['type', 'tel'],
    ['autocomplete', 'tel'],
    ['inputmode', 'tel'],
    ['placeholder', quote.phonePlaceholder],
  ])
    await expect(phone, name).toHaveAttribute(name, value);
  await expect(zip).toHaveAttribute('inputmode', 'numeric');
  await expect(zip).toHaveAttribute('autocomplete', 'postal-code');
  await expect(box, 'the consent box starts unticked').not.toBeChecked();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), {
      message: 'nothing wider than the screen',
    })
    .toBe(true);
  const [phoneBox, consentBox, zipBox] = await Promise.all(
    [phone, box, zip].map((locator) => locator.boundingBox()),
  );
  expect(phoneBox.height, `the phone field is ${phoneBox.height} px tall`).toBeGreaterThanOrEqual(
    44,
  );
  const gap = consentBox.y - (phoneBox.y + phoneBox.height);
  expect(gap, `the box is ${gap} px under the phone field`).toBeGreaterThanOrEqual(0);
  expect(gap, `the box is ${gap} px under the phone field`).toBeLessThanOrEqual(24);
  expect(zipBox.y, 'the ZIP code comes after the consent').toBeGreaterThan(consentBox.y);
}

test.describe('the quote form with the phone and ZIP fields on, on a phone', () => {
  for (const language of ['en', 'es']) {
    test(`with JavaScript (${language}): the number, the ticked box and the ZIP code reach the broker`, async ({
      openPage,
    }) => {
      const { path, quote, consent } = texts[language];
      const { page, context, errors } = await openPage(PHONE_VIEWPORT);
      await gotoHydrated(page, new URL(path, server.url).href);
      await field(page, 'phone').scrollIntoViewIfNeeded();
      await expectFitsThePhone(page, language);
      expect(await axeViolations(page)).toEqual([]);

      // The consent's words are the box's label: a tap on them ticks it, a second one unticks it.
      await page.getByText(consent).tap();
      await expect(field(page, 'may_call')).toBeChecked();
      await page.getByText(consent).tap();
      await expect(field(page, 'may_call')).not.toBeChecked();

      const email = `call.me.${language}@example.com`;
      await fill(page, { email, phone: PHONE.typed, mayCall: true, zip: ZIP.typed });
      await page.screenshot({ path: join(outputDir, `phone-and-zip-${language}-filled.png`) });
      await submitButton(page, language).tap();
      await expect(page.getByRole('status').filter({ hasText: quote.success.title })).toBeVisible();
      await expect(field(page, 'phone')).toHaveValue('');
      await expect(field(page, 'may_call'), 'unticked for the next one').not.toBeChecked();
      await expect(field(page, 'zip')).toHaveValue('');

      const [lead] = await leadsFor(email);
      expect(lead, 'stored').toBeTruthy();
      expect(lead.phone).toBe(PHONE.e164);
      expect(lead.may_call).toBe(true);
      expect(lead.zip).toBe(ZIP.typed);
      expect(lead.state).toBe(ZIP.state);
      expect(lead.language).toBe(language);
      // The consent record keeps the very words beside the box, in the page's language.
      expect(lead.consent?.phone).toEqual({ text: consent, given: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('with JavaScript: a number sent without the box ticked is kept as e-mail only', async ({
    openPage,
  }) => {
    const { page, context } = await openPage(PHONE_VIEWPORT);
    await gotoHydrated(page, server.url);
    const email = 'email.only@example.com';
    await fill(page, { email, phone: '555.555.0123', zip: '60614-1234' });
    await submitButton(page, 'en').tap();
    await expect(
      page.getByRole('status').filter({ hasText: texts.en.quote.success.title }),
    ).toBeVisible();
    const [lead] = await leadsFor(email);
    expect(lead.phone).toBe(PHONE.e164);
    expect(lead.may_call).toBe(false);
    expect(lead.zip, 'ZIP+4 kept as its five digits').toBe('60614');
    await context.close();
  });

  test('without JavaScript: the form posts the number, the ticked box and the ZIP code', async ({
    openPage,
  }) => {
    for (const language of ['en', 'es']) {
      const { path, quote } = texts[language];
      const { page, context } = await openPage({
        ...PHONE_VIEWPORT,
        javaScriptEnabled: false,
      });
      await page.goto(new URL(path, server.url).href);
      await field(page, 'phone').scrollIntoViewIfNeeded();
      await expectFitsThePhone(page, language);
      const email = `no.script.${language}@example.com`;
      await fill(page, { email, phone: '555 555 0123', mayCall: true, zip: ZIP.typed });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      await expect(page.getByRole('heading', { name: quote.success.title })).toBeVisible();
      const [lead] = await leadsFor(email);
      expect(lead, `stored (${language})`).toBeTruthy();
      expect(lead.phone).toBe(PHONE.e164);
      expect(lead.may_call).toBe(true);
      expect(lead.zip).toBe(ZIP.typed);
      expect(lead.state).toBe(ZIP.state);
      await context.close();
    }
  });
});

test.describe('a bad number is refused under its field', () => {
  /** The server's own message for the bad number, per language (it answers in the page's). */
  const serverMessages = {};

  for (const language of ['en', 'es']) {
    test(`by the page's rules (${language}): the content's message, nothing sent`, async ({
      openPage,
    }) => {
      const { path, quote } = texts[language];
      const { page, context } = await openPage(PHONE_VIEWPORT);
      const posts = [];
      page.on('request', (r) => r.url().includes('/api/quote-requests') && posts.push(r.url()));
      await gotoHydrated(page, new URL(path, server.url).href);
      const email = `bad.number.${language}@example.com`;
      await fill(page, { email, phone: BAD_PHONE, mayCall: true, zip: '00012' });
      await submitButton(page, language).tap();
      const phone = field(page, 'phone');
      await expect(page.getByText(quote.errors.phone)).toBeVisible();
      await expectMessage(phone, quote.errors.phone);
      await expect(phone).toHaveAttribute('aria-invalid', 'true');
      await expectMessage(field(page, 'zip'), quote.errors.zip);
      await expect(phone, 'the first wrong field takes the focus').toBeFocused();
      await expect(phone, 'what was typed stays').toHaveValue(BAD_PHONE);
      await page.screenshot({ path: join(outputDir, `phone-and-zip-${language}-bad-number.png`) });
      expect(await axeViolations(page)).toEqual([]);
      expect(posts).toEqual([]);
      expect(await leadsFor(email)).toEqual([]);
      await context.close();
    });

    test(`by the server (${language}): a 422 in the page's language, shown under the field`, async ({
      openPage,
    }) => {
      const { path, quote } = texts[language];
      const { page, context } = await openPage({
        ...PHONE_VIEWPORT,
        expectErrors: [/status of 422 .*\/api\/quote-requests:/],
      });
      await gotoHydrated(page, new URL(path, server.url).href);
      // A post that got past the page's rules (an old page, another client): the number is
      // changed on its way to the server.
      await page.route(/\/api\/quote-requests$/, (route) => {
        const body = JSON.parse(route.request().postData());
        return route.continue({ postData: JSON.stringify({ ...body, phone: BAD_PHONE }) });
      });
      const email = `server.refused.${language}@example.com`;
      await fill(page, { email, phone: PHONE.typed, mayCall: true, zip: ZIP.typed });
      const [response] = await Promise.all([
        page.waitForResponse(/\/api\/quote-requests$/),
        submitButton(page, language).tap(),
      ]);
      expect(response.status()).toBe(422);
      const { fields } = await response.json();
      expect(typeof fields?.phone, JSON.stringify(fields)).toBe('string');
      expect(fields.zip, 'the ZIP code was right').toBeUndefined();
      serverMessages[language] = fields.phone;
      await expect(page.getByRole('status').filter({ hasText: quote.failure.title })).toBeVisible();
      await expectMessage(field(page, 'phone'), quote.errors.phone);
      await expectMessage(field(page, 'zip'), null);
      expect(await leadsFor(email)).toEqual([]);
      if (language === 'es')
        expect(serverMessages.es, 'the server answered in Spanish').not.toBe(serverMessages.en);
      await context.close();
    });

    test(`without JavaScript (${language}): the result page says so under the field, values kept`, async ({
      openPage,
    }) => {
      const { path, quote, consent } = texts[language];
      const { page, context } = await openPage({
        ...PHONE_VIEWPORT,
        javaScriptEnabled: false,
      });
      await page.goto(new URL(path, server.url).href);
      const email = `bad.number.no.script.${language}@example.com`;
      await fill(page, { email, phone: BAD_PHONE, mayCall: true, zip: ZIP.typed });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      const phone = field(page, 'phone');
      await expectMessage(phone, quote.errors.phone);
      await expect(page.getByText(quote.errors.phone)).toBeVisible();
      await expect(phone).toHaveValue(BAD_PHONE);
      // The ZIP code was right: its message, which the server left empty, takes no room.
      await expectMessage(field(page, 'zip'), '');
      await expect(field(page, 'zip')).toHaveValue(ZIP.typed);
      await expect(field(page, 'email')).toHaveValue(email);
      await expect(page.getByRole('checkbox', { name: consent })).toBeVisible();
      await page.screenshot({
        path: join(outputDir, `phone-and-zip-${language}-bad-number-no-script.png`),
      });
      expect(await leadsFor(email)).toEqual([]);

      // Fixed on the result page itself.
      await fill(page, { email, phone: PHONE.typed, mayCall: true });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      await expect(page.getByRole('heading', { name: quote.success.title })).toBeVisible();
      const [lead] = await leadsFor(email);
      expect(lead.phone).toBe(PHONE.e164);
      expect(lead.may_call).toBe(true);
      await context.close();
    });
  }
});
