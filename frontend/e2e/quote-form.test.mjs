import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { launchBrowser, openPage, outputDir } from './support/browser.mjs';
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';

let browser;
before(async () => (browser = await launchBrowser()));
after(async () => browser?.close());

describe('quote form against the real server and database', () => {
  test('a valid quote shows the success toast, resets the form and is stored', async () => {
    const server = await startServer();
    try {
      const { page, context, errors } = await openPage(browser);
      await gotoHydrated(page, server.url);
      await chooseProduct(page, 'Family Health');
      const email = page.getByPlaceholder('Enter your email address');
      await email.fill('  ana.garcia@example.com ');
      await page.getByRole('button', { name: 'Get a Quote' }).click();

      const toast = page.getByRole('status').filter({ hasText: 'Quote request submitted!' });
      await toast.waitFor();
      assert.match(await toast.textContent(), /We'll contact you shortly with more information\./);
      assert.equal(await email.inputValue(), '');
      const product = page.getByRole('combobox', { name: 'Product' });
      assert.equal(await product.inputValue(), '');
      assert.equal(
        await product.evaluate((select) => select.selectedOptions[0].label),
        'Select Product',
      );
      await page.screenshot({ path: join(outputDir, 'quote-success.png') });

      const rows = server.rows();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].product, 'family');
      assert.equal(rows[0].email, 'ana.garcia@example.com');
      assert.equal(rows[0].source, 'web');
      assert.match(rows[0].user_agent, /Chrome/);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('a product picked and an e-mail typed before the form is live stay, with the focus, and are sent', async () => {
    const server = await startServer();
    try {
      const { page, context, errors } = await openPage(browser);
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
      assert.equal(
        await page.locator('form[data-hydrated]').count(),
        0,
        'filled in before the form was live',
      );
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name'));
      assert.equal(await focused(), 'email');
      typed();
      await page.locator('form[data-hydrated]').waitFor();
      assert.equal(await email.inputValue(), 'early.bird@example.com');
      assert.equal(await page.getByRole('combobox', { name: 'Product' }).inputValue(), 'medicare');
      assert.equal(await focused(), 'email', 'the focus stayed where it was');

      // Typing on goes into the live form's state: what is sent is what the fields show.
      await email.press('End');
      await page.keyboard.type('m');
      assert.equal(await email.inputValue(), 'early.bird@example.comm');
      await email.press('Backspace');
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
      assert.deepEqual(
        server.rows().map((row) => [row.product, row.email]),
        [['medicare', 'early.bird@example.com']],
      );
      assert.equal(new URL(page.url()).pathname, '/', 'sent as JSON, no page load');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('invalid input shows both messages and sends nothing', async () => {
    const server = await startServer();
    try {
      const { page, context } = await openPage(browser);
      const posts = [];
      page.on('request', (r) => r.url().includes('/api/quote-requests') && posts.push(r.url()));
      await gotoHydrated(page, server.url);
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByText('Please select a product').waitFor();
      await page.getByText('Please enter a valid email address').waitFor();
      assert.equal(
        await page.getByRole('combobox', { name: 'Product' }).getAttribute('aria-invalid'),
        'true',
      );

      await page.getByPlaceholder('Enter your email address').fill('ana@example');
      await page.getByRole('button', { name: 'Get a Quote' }).click();
      await page.getByText('Please enter a valid email address').waitFor();
      assert.deepEqual(posts, []);
      assert.deepEqual(server.rows(), []);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('a server failure shows "Submission failed" with the status and keeps the values', async () => {
    const server = await startServer();
    // A trigger added beside the running server (as an operator's tool could) refuses every row.
    const refuse =
      "CREATE TRIGGER refuse BEFORE INSERT ON quote_requests BEGIN SELECT RAISE(ABORT, 'refused'); END";
    execFileSync('python3', [
      '-c',
      'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(sys.argv[2])',
      join(server.dir, 'quotes.db'),
      refuse,
    ]);
    try {
      const { page, context } = await openPage(browser, {
        expectErrors: [/status of 500 .*\/api\/quote-requests:/],
      });
      await gotoHydrated(page, server.url);
      await chooseProduct(page, 'Medicare');
      await page.getByPlaceholder('Enter your email address').fill('ana@example.com');
      const submit = page.getByRole('button', { name: 'Get a Quote' });
      await submit.click();
      const toast = page.getByRole('status').filter({ hasText: 'Submission failed' });
      await toast.waitFor();
      assert.match(
        await toast.textContent(),
        /500: We could not save your request\. Please try again\./,
      );
      assert.equal(
        await page.getByPlaceholder('Enter your email address').inputValue(),
        'ana@example.com',
      );
      assert.equal(await submit.isEnabled(), true);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
