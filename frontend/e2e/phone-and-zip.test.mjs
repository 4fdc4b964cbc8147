// A broker who turns on the quote form's phone and ZIP fields (`phone: optional`, `zip: optional`
// in a copy of content/, one line each): on a phone (390x844), with JavaScript and without, a
// visitor sends a number with the consent box beside it ticked and a ZIP code, and the broker's
// admin API has the number in E.164, the consent, the ZIP code and its state; a number left
// without the box ticked is e-mail only. A bad number is refused under its field in English on /
// and in Spanish on /es/: by the page's rules, by the server's (a post that got past the page),
// and without JavaScript on the result page. The real build, release server and Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { launchBrowser, openPage, outputDir, VIEWPORTS } from './support/browser.mjs';
import { buildSite, contentCopy } from './support/build-site.mjs';
import { axeViolations, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';

/** As `openssl rand -hex 32` makes one (ADMIN_TOKEN needs at least 32 characters). */
const ADMIN_TOKEN = 'e2e0phone0and0zip0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f607';
const PHONE = { typed: '(555) 555-0123', e164: '+15555550123' };
/** An area code starting with 1: no US number (NANP). */
const BAD_PHONE = '123-456-7890';
const ZIP = { typed: '60614', state: 'IL' };
const PHONE_VIEWPORT = { viewport: VIEWPORTS.mobile, isMobile: true, hasTouch: true };

let browser;
let server;
let site;
let content;
/** Each language's texts, as the build read them from the content copy. */
const texts = {};

before(async () => {
  content = contentCopy((yaml) =>
    yaml
      .replace(/^ {4}phone: off$/m, '    phone: optional')
      .replace(/^ {4}zip: off$/m, '    zip: optional'),
  );
  const english = parse(readFileSync(join(content.dir, 'site.yaml'), 'utf8'));
  const spanish = parse(readFileSync(join(content.dir, 'es/site.yaml'), 'utf8'));
  assert.deepEqual(english.quote.fields, { phone: 'optional', zip: 'optional' });
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
  site = buildSite(content.dir);
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ staticDir: site.dist, env: { ADMIN_TOKEN } }),
  ]);
});
after(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
  site?.dispose();
  content?.dispose();
});

/** The leads with this e-mail address, as the broker's admin API lists them. */
async function leadsFor(email) {
  const url = new URL('/api/admin/quote-requests', server.url);
  url.searchParams.set('email', email);
  const response = await fetch(url, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()).quote_requests.filter((lead) => lead.email === email);
}

const field = (page, name) => page.locator(`form[action="/api/quote-requests"] [name="${name}"]`);

/** The field's own message, as assistive technology finds it (aria-describedby). */
const messageOf = (locator) =>
  locator.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
  );

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
async function assertFitsThePhone(page, language) {
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
    assert.equal(await phone.getAttribute(name), value, name);
  assert.equal(await zip.getAttribute('inputmode'), 'numeric');
  assert.equal(await zip.getAttribute('autocomplete'), 'postal-code');
  assert.equal(await box.isChecked(), false, 'the consent box starts unticked');
  assert.equal(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    true,
    'nothing wider than the screen',
  );
  const [phoneBox, consentBox, zipBox] = await Promise.all(
    [phone, box, zip].map((locator) => locator.boundingBox()),
  );
  assert.ok(phoneBox.height >= 44, `the phone field is ${phoneBox.height} px tall`);
  const gap = consentBox.y - (phoneBox.y + phoneBox.height);
  assert.ok(gap >= 0 && gap <= 24, `the box is ${gap} px under the phone field`);
  assert.ok(zipBox.y > consentBox.y, 'the ZIP code comes after the consent');
}

describe('the quote form with the phone and ZIP fields on, on a phone', () => {
  for (const language of ['en', 'es']) {
    test(`with JavaScript (${language}): the number, the ticked box and the ZIP code reach the broker`, async () => {
      const { path, quote, consent } = texts[language];
      const { page, context, errors } = await openPage(browser, PHONE_VIEWPORT);
      await gotoHydrated(page, new URL(path, server.url).href);
      await field(page, 'phone').scrollIntoViewIfNeeded();
      await assertFitsThePhone(page, language);
      assert.deepEqual(await axeViolations(page), []);

      // The consent's words are the box's label: a tap on them ticks it, a second one unticks it.
      await page.getByText(consent).tap();
      assert.equal(await field(page, 'may_call').isChecked(), true);
      await page.getByText(consent).tap();
      assert.equal(await field(page, 'may_call').isChecked(), false);

      const email = `call.me.${language}@example.com`;
      await fill(page, { email, phone: PHONE.typed, mayCall: true, zip: ZIP.typed });
      await page.screenshot({ path: join(outputDir, `phone-and-zip-${language}-filled.png`) });
      await submitButton(page, language).tap();
      await page.getByRole('status').filter({ hasText: quote.success.title }).waitFor();
      assert.equal(await field(page, 'phone').inputValue(), '');
      assert.equal(await field(page, 'may_call').isChecked(), false, 'unticked for the next one');
      assert.equal(await field(page, 'zip').inputValue(), '');

      const [lead] = await leadsFor(email);
      assert.ok(lead, 'stored');
      assert.equal(lead.phone, PHONE.e164);
      assert.equal(lead.may_call, true);
      assert.equal(lead.zip, ZIP.typed);
      assert.equal(lead.state, ZIP.state);
      assert.equal(lead.language, language);
      // The consent record keeps the very words beside the box, in the page's language.
      assert.deepEqual(lead.consent?.phone, { text: consent, given: true });
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  test('with JavaScript: a number sent without the box ticked is kept as e-mail only', async () => {
    const { page, context } = await openPage(browser, PHONE_VIEWPORT);
    await gotoHydrated(page, server.url);
    const email = 'email.only@example.com';
    await fill(page, { email, phone: '555.555.0123', zip: '60614-1234' });
    await submitButton(page, 'en').tap();
    await page.getByRole('status').filter({ hasText: texts.en.quote.success.title }).waitFor();
    const [lead] = await leadsFor(email);
    assert.equal(lead.phone, PHONE.e164);
    assert.equal(lead.may_call, false);
    assert.equal(lead.zip, '60614', 'ZIP+4 kept as its five digits');
    await context.close();
  });

  test('without JavaScript: the form posts the number, the ticked box and the ZIP code', async () => {
    for (const language of ['en', 'es']) {
      const { path, quote } = texts[language];
      const { page, context } = await openPage(browser, {
        ...PHONE_VIEWPORT,
        javaScriptEnabled: false,
      });
      await page.goto(new URL(path, server.url).href);
      await field(page, 'phone').scrollIntoViewIfNeeded();
      await assertFitsThePhone(page, language);
      const email = `no.script.${language}@example.com`;
      await fill(page, { email, phone: '555 555 0123', mayCall: true, zip: ZIP.typed });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      await page.getByRole('heading', { name: quote.success.title }).waitFor();
      const [lead] = await leadsFor(email);
      assert.ok(lead, `stored (${language})`);
      assert.equal(lead.phone, PHONE.e164);
      assert.equal(lead.may_call, true);
      assert.equal(lead.zip, ZIP.typed);
      assert.equal(lead.state, ZIP.state);
      await context.close();
    }
  });
});

describe('a bad number is refused under its field', () => {
  /** The server's own message for the bad number, per language (it answers in the page's). */
  const serverMessages = {};

  for (const language of ['en', 'es']) {
    test(`by the page's rules (${language}): the content's message, nothing sent`, async () => {
      const { path, quote } = texts[language];
      const { page, context } = await openPage(browser, PHONE_VIEWPORT);
      const posts = [];
      page.on('request', (r) => r.url().includes('/api/quote-requests') && posts.push(r.url()));
      await gotoHydrated(page, new URL(path, server.url).href);
      const email = `bad.number.${language}@example.com`;
      await fill(page, { email, phone: BAD_PHONE, mayCall: true, zip: '00012' });
      await submitButton(page, language).tap();
      const phone = field(page, 'phone');
      await page.getByText(quote.errors.phone).waitFor();
      assert.equal(await messageOf(phone), quote.errors.phone);
      assert.equal(await phone.getAttribute('aria-invalid'), 'true');
      assert.equal(await messageOf(field(page, 'zip')), quote.errors.zip);
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('name')),
        'phone',
        'the first wrong field takes the focus',
      );
      assert.equal(await phone.inputValue(), BAD_PHONE, 'what was typed stays');
      await page.screenshot({ path: join(outputDir, `phone-and-zip-${language}-bad-number.png`) });
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(posts, []);
      assert.deepEqual(await leadsFor(email), []);
      await context.close();
    });

    test(`by the server (${language}): a 422 in the page's language, shown under the field`, async () => {
      const { path, quote } = texts[language];
      const { page, context } = await openPage(browser, {
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
      assert.equal(response.status(), 422);
      const { fields } = await response.json();
      assert.equal(typeof fields?.phone, 'string', JSON.stringify(fields));
      assert.equal(fields.zip, undefined, 'the ZIP code was right');
      serverMessages[language] = fields.phone;
      await page.getByRole('status').filter({ hasText: quote.failure.title }).waitFor();
      assert.equal(await messageOf(field(page, 'phone')), quote.errors.phone);
      assert.equal(await messageOf(field(page, 'zip')), null);
      assert.deepEqual(await leadsFor(email), []);
      if (language === 'es')
        assert.notEqual(serverMessages.es, serverMessages.en, 'the server answered in Spanish');
      await context.close();
    });

    test(`without JavaScript (${language}): the result page says so under the field, values kept`, async () => {
      const { path, quote, consent } = texts[language];
      const { page, context } = await openPage(browser, {
        ...PHONE_VIEWPORT,
        javaScriptEnabled: false,
      });
      await page.goto(new URL(path, server.url).href);
      const email = `bad.number.no.script.${language}@example.com`;
      await fill(page, { email, phone: BAD_PHONE, mayCall: true, zip: ZIP.typed });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      const phone = field(page, 'phone');
      assert.equal(await messageOf(phone), quote.errors.phone);
      await page.getByText(quote.errors.phone).waitFor();
      assert.equal(await phone.inputValue(), BAD_PHONE);
      // The ZIP code was right: its message, which the server left empty, takes no room.
      assert.equal(await messageOf(field(page, 'zip')), '');
      assert.equal(await field(page, 'zip').inputValue(), ZIP.typed);
      assert.equal(await field(page, 'email').inputValue(), email);
      await page.getByRole('checkbox', { name: consent }).waitFor();
      await page.screenshot({
        path: join(outputDir, `phone-and-zip-${language}-bad-number-no-script.png`),
      });
      assert.deepEqual(await leadsFor(email), []);

      // Fixed on the result page itself.
      await fill(page, { email, phone: PHONE.typed, mayCall: true });
      await Promise.all([page.waitForURL(/\/quote-result$/), submitButton(page, language).tap()]);
      await page.getByRole('heading', { name: quote.success.title }).waitFor();
      const [lead] = await leadsFor(email);
      assert.equal(lead.phone, PHONE.e164);
      assert.equal(lead.may_call, true);
      await context.close();
    });
  }
});
