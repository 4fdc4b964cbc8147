import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { outputDir } from './support/browser.mjs';
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { expect, test } from './support/test.mjs';

test.describe('quote form against the real server and database', () => {
  test('a valid quote shows the success toast, resets the form and is stored', async ({
    openPage,
    server,
  }) => {
    const { page } = await openPage();
    await gotoHydrated(page, server.url);
    await chooseProduct(page, 'Family Health');
    const email = page.getByPlaceholder('Enter your email address');
    await email.fill('  ana.garcia@example.com ');
    await page.getByRole('button', { name: 'Get a Quote' }).click();

    const toast = page.getByRole('status').filter({ hasText: 'Quote request submitted!' });
    await expect(toast).toContainText("We'll contact you shortly with more information.");
    await expect(email).toHaveValue('');
    const product = page.getByRole('combobox', { name: 'Product' });
    await expect(product).toHaveValue('');
    await expect(product.locator('option:checked')).toHaveText('Select Product');
    await page.screenshot({ path: join(outputDir, 'quote-success.png') });

    const rows = server.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      product: 'family',
      email: 'ana.garcia@example.com',
      source: 'web',
    });
    expect(rows[0].user_agent).toMatch(/Chrome/);
  });

  test('a product picked and an e-mail typed before the form is live stay, with the focus, and are sent', async ({
    openPage,
    server,
  }) => {
    const { page } = await openPage();
    // Hold the form's code back until the visitor has filled in the prerendered form.
    let typed;
    const typedBeforeLive = new Promise((resolve) => (typed = resolve));
    await page.route(/\/assets\/QuoteForm-[^/]+\.js$/, async (route) => {
      await typedBeforeLive;
      await route.continue();
    });
    await page.goto(server.url);
    await chooseProduct(page, 'Medicare');
    const email = page.getByPlaceholder('Enter your email address');
    await email.fill('early.bird@example.com');
    await expect(
      page.locator('form[data-hydrated]'),
      'filled in before the form was live',
    ).toHaveCount(0);
    await expect(email).toBeFocused();
    typed();
    await expect(page.locator('form[data-hydrated]')).toBeAttached();
    await expect(email).toHaveValue('early.bird@example.com');
    await expect(page.getByRole('combobox', { name: 'Product' })).toHaveValue('medicare');
    await expect(email, 'the focus stayed where it was').toBeFocused();

    // Typing on goes into the live form's state: what is sent is what the fields show.
    await email.press('End');
    await page.keyboard.type('m');
    await expect(email).toHaveValue('early.bird@example.comm');
    await email.press('Backspace');
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
    ).toBeVisible();
    expect(server.rows().map((row) => [row.product, row.email])).toEqual([
      ['medicare', 'early.bird@example.com'],
    ]);
    expect(new URL(page.url()).pathname, 'sent as JSON, no page load').toBe('/');
  });

  test('invalid input shows both messages and sends nothing', async ({ openPage, server }) => {
    const { page } = await openPage();
    const posts = [];
    page.on('request', (r) => r.url().includes('/api/quote-requests') && posts.push(r.url()));
    await gotoHydrated(page, server.url);
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(page.getByText('Please select a product')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Product' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await page.getByPlaceholder('Enter your email address').fill('ana@example');
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    expect(posts).toEqual([]);
    expect(server.rows()).toEqual([]);
  });

  test('a server failure shows "Submission failed" with the status and keeps the values', async ({
    openPage,
    server,
  }) => {
    // A trigger added beside the running server (as an operator's tool could) refuses every row.
    const refuse =
      "CREATE TRIGGER refuse BEFORE INSERT ON quote_requests BEGIN SELECT RAISE(ABORT, 'refused'); END";
    execFileSync('python3', [
      '-c',
      'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(sys.argv[2])',
      join(server.dir, 'quotes.db'),
      refuse,
    ]);
    const { page } = await openPage({ expectErrors: [/status of 500 .*\/api\/quote-requests:/] });
    await gotoHydrated(page, server.url);
    await chooseProduct(page, 'Medicare');
    await page.getByPlaceholder('Enter your email address').fill('ana@example.com');
    const submit = page.getByRole('button', { name: 'Get a Quote' });
    await submit.click();
    const toast = page.getByRole('status').filter({ hasText: 'Submission failed' });
    await expect(toast).toContainText('500: We could not save your request. Please try again.');
    await expect(page.getByPlaceholder('Enter your email address')).toHaveValue('ana@example.com');
    await expect(submit).toBeEnabled();
  });
});
