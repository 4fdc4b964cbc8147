// The inbox's callable leads (issue 42), on a phone (390x844), against the release backend and
// Chromium: the server serves a copy of the built site whose build facts (.site/site.json) turn
// the phone and ZIP fields on, with the disclosure beside the phone field, and list one licence
// (Illinois). Leads posted through the JSON API, each with its page's form token: a number with
// the box ticked from a Texas ZIP code shows its state and the "Not licensed in Texas" badge, in
// the list and on its page, and no Call link, saying why; the same kind of number
// without the box shows no Call link, "E-mail only"; the state filter lists only Texas; marking
// a lead "Do not contact" hides its Call and e-mail actions behind a banner, lists it under its
// status filter, and undoing it brings them back. axe on the list and the lead pages.
import { join } from 'node:path';
import { outputDir } from './support/browser.mjs';
import { ADMIN_PASSWORD_HASH, signIn } from './support/inbox.mjs';
import { axeViolations } from './support/landing.mjs';
import { PHONE_CONSENT, postLead, siteWithPhoneAndZip } from './support/phone-site.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const PHONE_SIZE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** A number with the box ticked, from Austin, Texas: the broker is licensed in Illinois only. */
const CALLABLE = {
  product: 'individual',
  email: 'call.me@example.com',
  phone: '(555) 555-0123',
  may_call: true,
  zip: '78701',
};
/** The same kind of number, the box left unticked, from Chicago: e-mail only. */
const EMAIL_ONLY = {
  product: 'family',
  email: 'email.only@example.com',
  phone: '555.555.0123',
  may_call: false,
  zip: '60614',
};
/**
 * A visitor who agreed to be called and then asked to be left alone: a number of their own, as
 * the do-not-contact list holds a person's number for every lead with it.
 */
const STOP = {
  product: 'medicare',
  email: 'stop.calling@example.com',
  phone: '+1 555 555 0199',
  may_call: true,
  // Chicago: the broker is licensed in Illinois, so the number is a Call link.
  zip: '60614',
};

/** The links on the page that would dial a number, shown or not. */
const telLinks = (page) => page.locator('a[href^="tel:"]');

test.describe('callable leads in the inbox, on a phone', () => {
  let server;
  let site;
  const ids = {};
  test.beforeAll(async () => {
    site = siteWithPhoneAndZip(['Illinois']);
    server = await startServer({ staticDir: site.dir, env: { ADMIN_PASSWORD_HASH } });
    // One after the other: the newest first in the list.
    for (const [name, lead] of Object.entries({ EMAIL_ONLY, STOP, CALLABLE }))
      ids[name] = await postLead(server.url, lead);
  });
  test.afterAll(async () => {
    await server?.stop();
    site?.dispose();
  });

  /** A phone signed in to the inbox, on the list (`openPage` is the test's fixture). */
  async function inbox(openPage) {
    const opened = await openPage(PHONE_SIZE);
    await signIn(opened.page, server.url);
    await expect(
      opened.page.getByRole('status').filter({ hasText: / on this page\./ }),
    ).toBeVisible();
    return opened;
  }

  const cardOf = (page, email) =>
    page.getByRole('list', { name: 'Leads' }).locator('li', {
      has: page.getByRole('link', { name: email }),
    });

  test('a number with the box ticked in Texas: the "Not licensed in Texas" badge and no Call link, saying why', async ({
    openPage,
  }) => {
    const { page } = await inbox(openPage);
    const card = cardOf(page, CALLABLE.email);
    await expect(card).toContainText(/Texas\s*⚠?\s*Not licensed in Texas/, { useInnerText: true });
    await expect(cardOf(page, EMAIL_ONLY.email)).toContainText(/Illinois/, { useInnerText: true });
    await expect(cardOf(page, EMAIL_ONLY.email)).not.toContainText(/Not licensed/, {
      useInnerText: true,
    });
    expect(await axeViolations(page), 'list').toEqual([]);
    await page.screenshot({ path: join(outputDir, 'inbox-callable-list-phone.png') });

    await card.getByRole('link', { name: CALLABLE.email }).click();
    await expect(page.getByRole('heading', { name: CALLABLE.email })).toBeVisible();
    // Not licensed there: no Call button and no dialling link, and the number says why.
    await expect(page.getByRole('link', { name: /^Call\b/ })).toHaveCount(0);
    await expect(telLinks(page)).toHaveCount(0);
    await expect(page.getByText(/^\W*Not licensed in Texas$/)).toBeVisible();
    const field = (label) => page.locator('dt', { hasText: label }).locator('+ dd');
    await expect(field('Phone')).toContainText(
      /^\(555\) 555-0123\s*No Call link: you are not licensed in Texas/,
      { useInnerText: true },
    );
    await expect(field('ZIP code')).toHaveText('78701', { useInnerText: true });
    await expect(field('State')).toHaveText('Texas (TX)', { useInnerText: true });
    const consent = field('Consent to call');
    await expect(consent).toContainText(`“${PHONE_CONSENT}”`, { useInnerText: true });
    await expect(consent).toContainText(/Box ticked: the visitor agreed to be called or texted/, {
      useInnerText: true,
    });
    expect(await axeViolations(page), 'lead page').toEqual([]);
    await page.screenshot({
      path: join(outputDir, 'inbox-callable-lead-phone.png'),
      fullPage: true,
    });
  });

  test('the same kind of number without the box: no Call link, e-mail only', async ({
    openPage,
  }) => {
    const { page } = await inbox(openPage);
    await page.goto(new URL(`/admin#lead/${ids.EMAIL_ONLY}`, server.url).href);
    await expect(page.getByRole('heading', { name: EMAIL_ONLY.email })).toBeVisible();
    await expect(page.getByText('E-mail only: no consent to call')).toBeVisible();
    await expect(telLinks(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: /^Call\b/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Answer by e-mail' })).toBeVisible();
    await expect(page.getByText('Box not ticked: e-mail only.')).toBeVisible();
    await expect(page.getByText(/Not licensed/), 'licensed in Illinois').toHaveCount(0);
  });

  test('the state filter lists the leads of that state only', async ({ openPage }) => {
    const { page } = await inbox(openPage);
    await expect(
      page.getByRole('status').filter({ hasText: '3 leads on this page.' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('State').selectOption('IL');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '2 leads on this page.' }),
    ).toBeVisible();
    await expect(cardOf(page, EMAIL_ONLY.email)).toBeVisible();
    await page.getByRole('button', { name: 'Filters (1)' }).click();
    await page.getByLabel('State').selectOption('TX');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
    ).toBeVisible();
    await expect(cardOf(page, EMAIL_ONLY.email)).toHaveCount(0);
  });

  test("the lead e-mails' link to #spam opens the list of what was held as spam", async ({
    openPage,
  }) => {
    const { page } = await inbox(openPage);
    await page.goto(new URL('/admin#spam', server.url).href);
    // The three leads are not spam: none is listed, under the one filter the hash set.
    await expect(page.getByRole('status').filter({ hasText: 'No leads match.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
  });

  test('"Do not contact" hides the Call and e-mail actions, and can be undone', async ({
    openPage,
  }) => {
    const { page } = await inbox(openPage);
    await cardOf(page, STOP.email).getByRole('link', { name: STOP.email }).click();
    await expect(page.getByRole('heading', { name: STOP.email })).toBeVisible();
    const call = page.getByRole('link', { name: 'Call (555) 555-0199' });
    await expect(call).toBeVisible();
    await expect(call).toHaveAttribute('href', 'tel:+15555550199');
    await expect(call).toHaveText('Call', { useInnerText: true });
    const box = await call.boundingBox();
    expect(
      box.height >= 44 && box.y < 844,
      `the Call button at ${box.y}px, ${box.height}px tall`,
    ).toBeTruthy();
    // The one dialling link a phone shows (the number itself is the link on wider screens).
    await expect(telLinks(page).filter({ visible: true })).toHaveCount(1);

    await page.getByRole('button', { name: 'Do not contact' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Marked do not contact' }),
    ).toBeVisible();
    const banner = page
      .getByRole('note')
      .filter({ hasText: 'The visitor asked not to be contacted' });
    await expect(banner).toBeVisible();
    await expect(telLinks(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Answer by e-mail' })).toHaveCount(0);
    await expect(page.getByText('(555) 555-0199 (do not contact)')).toBeVisible();
    expect(await axeViolations(page), 'lead page, do not contact').toEqual([]);
    await page.screenshot({
      path: join(outputDir, 'inbox-callable-do-not-contact-phone.png'),
      fullPage: true,
    });

    // Kept by the server: read again, it is still not to be contacted, and listed as such.
    await page.reload();
    await expect(page.getByRole('heading', { name: STOP.email })).toBeVisible();
    await expect(banner).toBeVisible();
    await expect(telLinks(page)).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Status').selectOption('do_not_contact');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
    ).toBeVisible();
    await expect(cardOf(page, STOP.email)).toContainText(/Do not contact/, { useInnerText: true });

    await cardOf(page, STOP.email).getByRole('link', { name: STOP.email }).click();
    await page.getByRole('button', { name: 'Undo do not contact' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Do not contact undone' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call (555) 555-0199' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Answer by e-mail' })).toBeVisible();
    await expect(banner).toHaveCount(0);
  });
});
