// The quote form before, or without, its script: JavaScript off, the form's script blocked while
// the rest of the page loads, and a submit before the form is live on a throttled phone. The
// browser posts the form itself; the server answers 303 to a result page in the product's words.
// After every one: no typed value in any URL, redirect or access log line.
import { join } from 'node:path';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { animationsDone, axeViolations, chooseProduct } from './support/landing.mjs';
import { holdDatabase } from './support/database.mjs';
import { startServer } from './support/server.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const QUOTE_FORM_CHUNK = /\/assets\/QuoteForm-[^/]+\.js$/;
const ISLAND_FAILED = /The quote-form island could not load/;

/**
 * Records every URL the page asks for and every redirect's Location, so a test can show that no
 * typed value travelled in one.
 */
function watchUrls(page) {
  const urls = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('response', (response) => {
    const location = response.headers().location;
    if (location) urls.push(location);
  });
  return urls;
}

/** No typed value in the page's URLs, its redirects or the server's log (and `more` logs). */
function assertNothingLeaked(values, urls, logs) {
  for (const value of values) {
    for (const encoded of new Set([value, encodeURIComponent(value), value.replace('@', '%40')])) {
      for (const url of urls) expect(url, `${value} in the URL ${url}`).not.toContain(encoded);
      for (const log of logs) expect(log, `${value} in a log line`).not.toContain(encoded);
    }
  }
  for (const url of urls)
    expect(url, `a field in the URL ${url}`).not.toMatch(/[?&](product|email|website)=/);
}

/** Fills the form on the page (landing or result page) and presses its button. */
async function submit(page, { product, email }) {
  if (product) await chooseProduct(page, product);
  await page.getByPlaceholder('Enter your email address').fill(email);
  await Promise.all([
    page.waitForURL(/\/quote-result$/),
    page.getByRole('button', { name: 'Get a Quote' }).click(),
  ]);
}

const productField = (page) => page.getByRole('combobox', { name: 'Product' });
const emailField = (page) => page.getByPlaceholder('Enter your email address');

/** The field's own message, as assistive technology finds it (aria-describedby). */
const messageOf = (field) =>
  field.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
  );

/** An href that leads to the landing page's form: whatever it resolves against, its hash is #quote. */
const TO_THE_FORM = /^[^#]*#quote$/;

/**
 * Each way the form's script can be missing: switched off, or blocked (the rest of the page
 * loads and runs; only the form's chunk fails, so its island reports that it could not load).
 */
const WITHOUT_SCRIPT = [
  { name: 'with JavaScript off', options: { javaScriptEnabled: false }, block: false },
  {
    name: "with the form's script blocked",
    // Chromium also reports the blocked fetch itself.
    options: { expectErrors: [ISLAND_FAILED], allowErrors: [/net::ERR_FAILED/] },
    block: true,
  },
];

async function openWithout(openPage, way, viewport = VIEWPORTS.desktop, extra = {}) {
  const opened = await openPage({ viewport, ...way.options, ...extra });
  if (way.block) await opened.page.route(QUOTE_FORM_CHUNK, (route) => route.abort());
  return opened;
}

/**
 * On the landing page, brings the form into view; where the page runs scripts, that starts the
 * form's island, and this waits until it has failed to load (the form then stays a plain form).
 */
async function gotoForm(page, way, url) {
  const failed =
    way.block && page.waitForEvent('console', (message) => ISLAND_FAILED.test(message.text()));
  await page.goto(url);
  await productField(page).scrollIntoViewIfNeeded();
  await failed;
}

for (const way of WITHOUT_SCRIPT) {
  test.describe(`the quote form ${way.name}`, () => {
    const shared = sharedServer();

    test('a valid request is stored and the result page says so, with a way back', async ({
      openPage,
    }) => {
      const { server } = shared;
      const { page, context } = await openWithout(openPage, way);
      const urls = watchUrls(page);
      await gotoForm(page, way, server.url);
      const email = `valid.${way.block ? 'blocked' : 'off'}@example.com`;
      await submit(page, { product: 'Family Health', email });
      await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
      await expect(
        page.getByText("We'll contact you shortly with more information."),
      ).toBeVisible();
      const back = page.getByRole('link', { name: 'Back to the quote form' });
      await expect(back).toHaveAttribute('href', TO_THE_FORM);
      await page.screenshot({
        path: join(outputDir, `quote-result-submitted-${way.block ? 'blocked' : 'off'}.png`),
      });
      const rows = server.rows().filter((row) => row.email === email);
      expect(rows.map((row) => [row.product, row.source])).toEqual([['family', 'web']]);
      // A reload does not post again: the result was read once, the page leads back to the form.
      await page.reload();
      await expect(page).toHaveURL((url) => url.hash === '#quote');
      expect(server.rows().filter((row) => row.email === email)).toHaveLength(1);
      assertNothingLeaked([email], urls, [server.log()]);
      await context.close();
    });

    test('wrong fields get their messages beside them, with what was typed kept', async ({
      openPage,
    }) => {
      const { server } = shared;
      const { page, context } = await openWithout(openPage, way);
      const urls = watchUrls(page);
      await gotoForm(page, way, server.url);
      const typo = `typo.${way.block ? 'blocked' : 'off'}@example`;
      await submit(page, { email: typo });
      await expect.poll(() => messageOf(productField(page))).toBe('Please select a product');
      await expect
        .poll(() => messageOf(emailField(page)))
        .toBe('Please enter a valid email address');
      await expect(productField(page)).toHaveAttribute('aria-invalid', 'true');
      await expect(emailField(page)).toHaveValue(typo);
      await page.screenshot({
        path: join(outputDir, `quote-result-invalid-${way.block ? 'blocked' : 'off'}.png`),
      });

      // One field right, one wrong: the right one stays chosen.
      await submit(page, { product: 'Medicaid', email: typo });
      await expect(productField(page)).toHaveValue('medicaid');
      await expect.poll(() => messageOf(productField(page))).toBeNull();
      await expect
        .poll(() => messageOf(emailField(page)))
        .toBe('Please enter a valid email address');

      // Fixed on the result page itself.
      const fixed = `${typo}.com`;
      await submit(page, { email: fixed });
      await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
      expect(
        server
          .rows()
          .filter((row) => row.email.startsWith('typo.'))
          .map((row) => [row.product, row.email]),
      ).toEqual([['medicaid', fixed]]);
      assertNothingLeaked([typo, fixed], urls, [server.log()]);
      await context.close();
    });

    test('a filled honeypot is answered as submitted and held as spam', async ({ openPage }) => {
      const { server } = shared;
      const { page, context } = await openWithout(openPage, way);
      await gotoForm(page, way, server.url);
      const email = `bot.${way.block ? 'blocked' : 'off'}@example.com`;
      await page.locator('input[name="website"]').fill('http://spam.example', { force: true });
      await submit(page, { product: 'Medicare', email });
      await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
      expect(
        server
          .rows()
          .filter((row) => row.email === email)
          .map((row) => [row.status, row.spam_reason]),
      ).toEqual([['spam', 'honeypot']]);
      await context.close();
    });

    test('a double submit, and the same request sent again from the back button, is one lead', async ({
      openPage,
    }) => {
      const { server } = shared;
      const { page, context } = await openWithout(openPage, way);
      const urls = watchUrls(page);
      await gotoForm(page, way, server.url);
      const email = `twice.${way.block ? 'blocked' : 'off'}@example.com`;
      await chooseProduct(page, 'Employer Plan');
      await emailField(page).fill(email);
      const posts = [];
      page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
      // The second click's post aborts the first's navigation, so wait for the page it ends on
      // (a locator waits across navigations), not for one navigation that may be the aborted one.
      await page.getByRole('button', { name: 'Get a Quote' }).dblclick();
      await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
      await expect(page).toHaveURL(/\/quote-result$/);
      await page.goBack();
      await submit(page, { product: 'Employer Plan', email });
      await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
      expect(posts.length, `posts: ${posts.length}`).toBeGreaterThanOrEqual(2);
      expect(server.rows().filter((row) => row.email === email)).toHaveLength(1);
      assertNothingLeaked([email], urls, [server.log()]);
      await context.close();
    });
  });

  test.describe(`refusals ${way.name}`, () => {
    test('over the rate limit the page says "Submission failed" and why, values kept', async ({
      openPage,
    }) => {
      const server = await startServer({
        env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '1' },
      });
      try {
        const { page, context } = await openWithout(openPage, way);
        const urls = watchUrls(page);
        await gotoForm(page, way, server.url);
        await submit(page, { product: 'Medicare', email: 'first@example.com' });
        await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
        await gotoForm(page, way, server.url);
        await submit(page, { product: 'Individual Health', email: 'second@example.com' });
        await expect(page.getByRole('heading', { name: 'Submission failed' })).toBeVisible();
        await expect(
          page.getByText(
            /^429: Too many quote requests from your network\. Please try again in \d+ seconds\.$/,
          ),
        ).toBeVisible();
        await expect(productField(page)).toHaveValue('individual');
        await expect(emailField(page)).toHaveValue('second@example.com');
        expect(server.rows().map((row) => row.email)).toEqual(['first@example.com']);
        assertNothingLeaked(['first@example.com', 'second@example.com'], urls, [server.log()]);
        await context.close();
      } finally {
        await server.stop();
      }
    });

    test('a database outage is a 503 page; sent again once it is over, it is stored', async ({
      openPage,
    }) => {
      const server = await startServer();
      const lock = await holdDatabase(join(server.dir, 'quotes.db'));
      try {
        const { page, context } = await openWithout(openPage, way);
        const urls = watchUrls(page);
        await gotoForm(page, way, server.url);
        await submit(page, { product: 'Family Health', email: 'outage@example.com' });
        await expect(page.getByRole('heading', { name: 'Submission failed' })).toBeVisible();
        await expect(
          page.getByText(
            '503: The service is briefly unavailable. Please try again in a few seconds.',
          ),
        ).toBeVisible();
        await page.screenshot({
          path: join(outputDir, `quote-result-failed-${way.block ? 'blocked' : 'off'}.png`),
        });
        await lock.release();
        // The values are still in the form: sending it again is one press.
        await Promise.all([
          page.waitForURL(/\/quote-result$/),
          page.getByRole('button', { name: 'Get a Quote' }).click(),
        ]);
        await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
        expect(server.rows().map((row) => [row.product, row.email])).toEqual([
          ['family', 'outage@example.com'],
        ]);
        assertNothingLeaked(['outage@example.com'], urls, [server.log()]);
        await context.close();
      } finally {
        await lock.release();
        await server.stop();
      }
    });
  });
}

test.describe('a submit before the form is live, on a throttled phone', () => {
  test("'Get Started', a product, an e-mail and Enter before hydration: stored, and the result page says so", async ({
    openPage,
    server,
  }) => {
    const { page, context, errors } = await openPage({
      viewport: VIEWPORTS.mobile,
      hasTouch: true,
      isMobile: true,
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Lighthouse's slow 4G: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up.
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    // The form's code is held back until the request has gone, so the press is surely before
    // hydration however fast the machine is.
    let sent;
    const requestSent = new Promise((resolve) => (sent = resolve));
    await page.route(QUOTE_FORM_CHUNK, async (route) => {
      await requestSent;
      await route.continue().catch(() => undefined);
    });
    const urls = watchUrls(page);
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Get Started', exact: true }).click();
    const product = productField(page);
    await expect(product).toBeFocused();
    await product.selectOption({ label: 'Medicaid' });
    await emailField(page).fill('early@example.com');
    await expect(page.locator('form[data-hydrated]'), 'not live yet').toHaveCount(0);
    await Promise.all([page.waitForURL(/\/quote-result$/), emailField(page).press('Enter')]);
    sent();
    await expect(page.getByRole('heading', { name: 'Quote request submitted!' })).toBeVisible();
    expect(server.rows().map((row) => [row.product, row.email])).toEqual([
      ['medicaid', 'early@example.com'],
    ]);
    assertNothingLeaked(['early@example.com'], urls, [server.log()]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

test.describe('result pages: axe', () => {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`zero violations on each result page at ${viewport.width}x${viewport.height}`, async ({
      openPage,
    }) => {
      const server = await startServer({
        env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '1' },
      });
      try {
        const way = WITHOUT_SCRIPT[1];
        const { page, context } = await openWithout(openPage, way, viewport);
        const check = async (heading, name) => {
          await expect(page.getByRole('heading', { name: heading })).toBeVisible();
          // The header's links fade in (docs/product.md §4): axe judges their contrast once they are opaque.
          await animationsDone(page.getByRole('banner'));
          expect(await axeViolations(page), name).toEqual([]);
          await page.screenshot({
            path: join(outputDir, `quote-result-${name}-${size}.png`),
            fullPage: true,
          });
        };
        await gotoForm(page, way, server.url);
        await submit(page, { email: 'nope' });
        await check('Get a Free Quote to Create Your Desired Insurance', 'invalid');
        await submit(page, { product: 'Medicare', email: 'axe@example.com' });
        await check('Quote request submitted!', 'submitted');
        await gotoForm(page, way, server.url);
        await submit(page, { product: 'Medicare', email: 'axe2@example.com' });
        await check('Submission failed', 'failed');
        await context.close();
      } finally {
        await server.stop();
      }
    });
  }
});
