// The page under its real Content-Security-Policy, the honeypot, and the rate limit, in Chromium
// against the real release server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './support/browser.mjs';
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';

let browser;
before(async () => (browser = await launchBrowser()));
after(async () => browser?.close());

/** Collects CSP violations both as DOM events and as console messages. */
async function watchCsp(page) {
  const console = [];
  page.on(
    'console',
    (message) => /Content Security Policy/i.test(message.text()) && console.push(message.text()),
  );
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [...console, ...(await page.evaluate(() => window.__cspViolations))];
}

async function fillQuote(page) {
  await chooseProduct(page, 'Medicare');
  await page.getByPlaceholder('Enter your email address').fill('ana@example.com');
}

describe('hardening in the browser', () => {
  test('the page loads, validates with wasm and submits with no CSP violation', async () => {
    const server = await startServer();
    try {
      const { page, context, errors } = await openPage(browser);
      const violations = await watchCsp(page);
      const response = await gotoHydrated(page, server.url);
      assert.match(
        response.headers()['content-security-policy'],
        /script-src 'self' 'wasm-unsafe-eval'/,
      );
      // Invalid input first: the wasm quote rules must compile under the policy.
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByText('Please select a product').waitFor();
      await fillQuote(page);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(300);
      assert.deepEqual(await violations(), []);
      assert.deepEqual(errors, []);
      assert.equal(server.rows().length, 1);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('the honeypot is out of reach for people, and a filled one is answered as success and held as spam', async () => {
    const server = await startServer();
    try {
      const { page, context } = await openPage(browser);
      await gotoHydrated(page, server.url);
      const honeypot = page.locator('input[name="website"]');
      assert.equal(await honeypot.getAttribute('tabindex'), '-1');
      assert.equal(await honeypot.getAttribute('autocomplete'), 'off');
      assert.equal(
        await honeypot.evaluate((el) => el.closest('[aria-hidden="true"]') !== null),
        true,
      );
      assert.equal(
        await page.getByRole('textbox', { name: 'Website' }).count(),
        0,
        'not in the accessibility tree',
      );
      await fillQuote(page);
      await honeypot.evaluate((el) => (el.value = 'http://spam.example'));
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
      assert.deepEqual(
        server.rows().map((row) => [row.status, row.spam_reason]),
        [['spam', 'honeypot']],
      );
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('past the rate limit the form shows the 429 message and keeps the values', async () => {
    const server = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '1' },
    });
    try {
      const { page, context } = await openPage(browser, {
        expectErrors: [/status of 429 .*\/api\/quote-requests:/],
      });
      await gotoHydrated(page, server.url);
      await fillQuote(page);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
      await fillQuote(page);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      const toast = page.getByRole('status').filter({ hasText: 'Submission failed' });
      await toast.waitFor();
      assert.match(await toast.textContent(), /429: Too many quote requests/);
      assert.equal(
        await page.getByPlaceholder('Enter your email address').inputValue(),
        'ana@example.com',
      );
      assert.equal(server.rows().length, 1);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
