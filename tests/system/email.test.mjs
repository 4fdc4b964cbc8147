import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from '../../frontend/e2e/support/browser.mjs';
import { chooseProduct, gotoHydrated } from '../../frontend/e2e/support/landing.mjs';
import { startServer } from '../../frontend/e2e/support/server.mjs';
import { pollUntil } from '../support/poll.mjs';
import { startSmtpServer } from '../support/smtp.mjs';

let browser;
before(async () => (browser = await launchBrowser()));
after(async () => browser?.close());

test('a quote sent from the form is in the broker’s mailbox within 5 s of the success toast', async () => {
  const smtp = await startSmtpServer();
  const server = await startServer({ env: smtp.env });
  try {
    const { page, context, errors } = await openPage(browser);
    await gotoHydrated(page, server.url);
    await chooseProduct(page, 'Family Health');
    await page.getByPlaceholder('Enter your email address').fill('ana.garcia@example.com');
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
    const toastAt = Date.now();

    const arrived = () => smtp.messages().length > 0 && smtp.messages();
    const messages = await pollUntil(arrived, {
      within: 5_000,
      every: 50,
      what: 'a message in the mailbox after the toast',
    });
    assert.equal(
      messages.length,
      1,
      `a message within 5 s of the toast (${Date.now() - toastAt} ms)`,
    );
    const [mail] = messages;
    const header = (name) =>
      mail.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
    assert.deepEqual(mail.rcpt_tos, ['broker@example.com']);
    assert.deepEqual(header('Subject'), ['New quote request: Family Health (web)']);
    assert.deepEqual(header('Reply-To'), ['ana.garcia@example.com']);
    const [row] = server.rows();
    assert.deepEqual(header('Message-ID'), [`<${row.id}@broker.example>`]);
    assert.match(mail.text, /Chrome/, 'the browser that sent it');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await server.stop();
    await smtp.stop();
  }
});
