// Cancelling a booked call by the link in its confirmation e-mail (issue 58.4), on a phone's
// screen (390x844) with JavaScript off, against the release backend, a real SMTP server
// (tests/support/smtp.mjs) and Chromium: the visitor books on /book, the confirmation's link
// opens a page the server writes with the call and a Cancel button; cancelling says so, the
// broker gets the calendar's cancellation, and the link then says it was used (410); a forged
// link opens nothing (404). backend/src/routes/booking_manage/.
import { startSmtpServer } from '../../tests/support/smtp.mjs';
import { BOOKING_WORDS, siteWithBooking } from './support/booking-site.mjs';
import { fitsTheScreen, VIEWPORTS } from './support/browser.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const WORDS = BOOKING_WORDS.en;

test.describe('the link in a booking confirmation, on a phone without JavaScript', () => {
  let server;
  let smtp;

  test.beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer({
      staticDir: siteWithBooking(),
      env: smtp.env,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** The e-mail to `email` `matching`, waited for. */
  async function mailTo(email, matching = () => true) {
    let mail;
    await expect
      .poll(() => (mail = smtp.messages().find((m) => m.rcpt_tos.includes(email) && matching(m))), {
        message: `an e-mail to ${email}`,
      })
      .toBeTruthy();
    return mail;
  }

  test('cancels the call once; a used or forged link says so', async ({ openPage }) => {
    const { page } = await openPage({
      viewport: VIEWPORTS.mobile,
      javaScriptEnabled: false,
      // Chromium logs the used and the forged link's answers as console errors.
      expectErrors: [/status of 410/, /status of 404/],
    });
    await page.goto(`${server.url}/book`);
    await page.locator('input[name="slot"]').nth(3).check();
    await page.getByLabel(WORDS.name).fill('Ana Ruiz');
    await page.getByLabel(WORDS.email).fill('ana@example.com');
    await page.getByLabel(WORDS.soa).check();
    await page.getByRole('button', { name: WORDS.title }).click();
    await expect(page.getByText(WORDS.done)).toBeVisible();

    const confirmation = await mailTo('ana@example.com');
    expect(confirmation.calendars.map((c) => c.method)).toEqual(['REQUEST']);
    const line = confirmation.text.split('\n').find((l) => l.includes('/book/manage/'));
    const link = new URL(line.trim()).pathname;

    await page.goto(`${server.url}${link}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.title);
    await expect(page.getByText(`${WORDS.title}: `)).toBeVisible();
    expect(await fitsTheScreen(page)).toBe(true);
    await page.getByRole('button', { name: WORDS.manage.cancel }).click();
    await expect(page.getByRole('status')).toHaveText(WORDS.manage.cancelled);
    expect(await fitsTheScreen(page)).toBe(true);

    const cancel = await mailTo('broker@example.com', (m) =>
      m.calendars.some((c) => c.method === 'CANCEL'),
    );
    expect(cancel.calendars[0].content).toContain('METHOD:CANCEL');

    await page.goto(`${server.url}${link}`);
    await expect(page.getByRole('status')).toHaveText(WORDS.manage.gone);
    await expect(page.getByRole('button', { name: WORDS.manage.cancel })).toHaveCount(0);
    const forged = link.slice(0, -1) + (link.endsWith('0') ? '1' : '0');
    await page.goto(`${server.url}${forged}`);
    await expect(page.getByRole('status')).toHaveText(WORDS.manage.unknown);
  });
});
