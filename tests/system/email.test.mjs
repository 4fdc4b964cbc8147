import { chooseProduct, gotoHydrated } from '../../frontend/e2e/support/landing.mjs';
import { startServer } from '../../frontend/e2e/support/server.mjs';
import { expect, test } from '../../frontend/e2e/support/test.mjs';
import { startSmtpServer } from '../support/smtp.mjs';

test('a quote sent from the form is in the broker’s mailbox within 5 s of the success toast', async ({
  openPage,
}) => {
  const smtp = await startSmtpServer();
  const server = await startServer({ env: smtp.env });
  try {
    const { page, context } = await openPage();
    await gotoHydrated(page, server.url);
    await chooseProduct(page, 'Family Health');
    await page.getByPlaceholder('Enter your email address').fill('ana.garcia@example.com');
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
    ).toBeVisible();
    const toastAt = Date.now();

    const arrived = () => smtp.messages().length > 0 && smtp.messages();
    let messages;
    await expect
      .poll(() => (messages = arrived()), {
        timeout: 5_000,
        intervals: [50],
        message: 'a message in the mailbox after the toast',
      })
      .toBeTruthy();
    expect(messages, `a message within 5 s of the toast (${Date.now() - toastAt} ms)`).toHaveLength(
      1,
    );
    const [mail] = messages;
    const header = (name) =>
      mail.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
    expect(mail.rcpt_tos).toEqual(['broker@example.com']);
    expect(header('Subject')).toEqual(['New quote request: Family Health (web)']);
    expect(header('Reply-To')).toEqual(['ana.garcia@example.com']);
    const [row] = server.rows();
    expect(header('Message-ID')).toEqual([`<${row.id}@broker.example>`]);
    expect(mail.text, 'the browser that sent it').toMatch(/Chrome/);
    // Closed before the server stops, so the page sees no server going away.
    await context.close();
  } finally {
    await server.stop();
    await smtp.stop();
  }
});
