// The page under its real Content-Security-Policy, the honeypot, and the rate limit, in Chromium
// against the real release server.
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

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

test.describe('hardening in the browser', () => {
  test('the page loads, validates with wasm and submits with no CSP violation', async ({
    openPage,
    server,
  }) => {
    const { page, context, errors } = await openPage();
    const violations = await watchCsp(page);
    const response = await gotoHydrated(page, server.url);
    expect(response.headers()['content-security-policy']).toMatch(
      /script-src 'self' 'wasm-unsafe-eval'/,
    );
    // Invalid input first: the wasm quote rules must compile under the policy.
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(page.getByText('Please select a product')).toBeVisible();
    await fillQuote(page);
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
    ).toBeVisible();
    // What a visitor's scroll fetches (the lazy images), each loaded or refused by the policy.
    for (const image of await page.locator('img').all()) {
      await image.evaluate((img) => img.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await expect.poll(() => image.evaluate((img) => img.complete)).toBe(true);
    }
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    expect(server.rows()).toHaveLength(1);
    await context.close();
  });

  test('the honeypot is out of reach for people, and a filled one is answered as success and held as spam', async ({
    openPage,
    server,
  }) => {
    const { page, context } = await openPage();
    await gotoHydrated(page, server.url);
    const honeypot = page.locator('input[name="website"]');
    await expect(honeypot).toHaveAttribute('tabindex', '-1');
    await expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(await honeypot.evaluate((el) => el.closest('[aria-hidden="true"]') !== null)).toBe(true);
    await expect(
      page.getByRole('textbox', { name: 'Website' }),
      'not in the accessibility tree',
    ).toHaveCount(0);
    await fillQuote(page);
    await honeypot.evaluate((el) => (el.value = 'http://spam.example'));
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
    ).toBeVisible();
    expect(server.rows().map((row) => [row.status, row.spam_reason])).toEqual([
      ['spam', 'honeypot'],
    ]);
    await context.close();
  });

  test('past the rate limit the form shows the 429 message and keeps the values', async ({
    openPage,
  }) => {
    const server = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '1' },
    });
    try {
      const { page, context } = await openPage({
        expectErrors: [/status of 429 .*\/api\/quote-requests:/],
      });
      await gotoHydrated(page, server.url);
      await fillQuote(page);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
      ).toBeVisible();
      await fillQuote(page);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      const toast = page.getByRole('status').filter({ hasText: 'Submission failed' });
      await expect(toast).toContainText(/429: Too many quote requests/);
      await expect(page.getByPlaceholder('Enter your email address')).toHaveValue(
        'ana@example.com',
      );
      expect(server.rows()).toHaveLength(1);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
