// Booked calls beyond the page itself (docs/product.md §13), on a phone's screen, with a site
// built from content with booking on (the broker in America/Chicago, open all day, no notice):
// a quote followed by a booking on / and /es/ (the quote's notification links to the booking
// page, which is pre-filled, and the booking joins the quote's lead, whose page in the inbox then
// shows the call and its Scope of Appointment), the times on the visitor's clock with JavaScript
// and on the broker's without, and the inbox's Calls view.
import { appendFileSync, cpSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { VIEWPORTS } from './support/browser.mjs';
import { buildSite, contentCopy } from './support/build-site.mjs';
import { ADMIN_PASSWORD_HASH, signIn } from './support/inbox.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { repoRoot, startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const BROKER_ZONE = 'America/Chicago';
/** The visitor's, far from the broker's. */
const VISITOR_ZONE = 'Asia/Tokyo';

const HOURS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
  .map((day) => `    ${day}: ["00:00-23:30"]`)
  .join('\n');

const WORDS = {
  en: {
    link: 'Book a call with us',
    zone: `Times are in ${BROKER_ZONE}.`,
    yourZone: `Times are in your zone (${VISITOR_ZONE}).`,
    name: 'Full name',
    soa: 'Part D',
    submit: 'Book the call',
    done: 'We will call you at that time.',
  },
  es: {
    link: 'Reserve una llamada',
    zone: `Horas en ${BROKER_ZONE}.`,
    yourZone: `Horas en su zona (${VISITOR_ZONE}).`,
    name: 'Nombre completo',
    soa: 'Parte D',
    submit: 'Reservar la llamada',
    done: 'Le llamaremos a esa hora.',
  },
};

/** `booking:`'s texts in one language, YAML, indented under it. */
const texts = (w, statement) => `  link: ${w.link}
  title: ${w.link}
  intro: ${w.link}.
  slotLabel: ${w.link}
  shownInZone: "${w.zone.replace(BROKER_ZONE, '{zone}')}"
  shownInYourZone: "${w.yourZone.replace(VISITOR_ZONE, '{zone}')}"
  noTimes: "-"
  nameLabel: ${w.name}
  emailLabel: Email
  soaHeading: SOA
  soaProducts:
    medicareAdvantage: Medicare Advantage
    partD: ${w.soa}
    medicareSupplement: Medicare Supplement
    dentalVisionHearing: Dental
  soaStatement: "${statement}"
  submit: ${w.submit}
  success:
    title: ${w.submit}
    description: ${w.done}
  errors:
    slot: "?"
    name: "?"
    email: "?"
    soa: "?"
    taken: "?"
  emails:
    summary: ${w.link}
    subject: "${w.link}: {when}"
    booked: "${w.done} {when}"
    manage: ${w.link}
    reminderSubject: "${w.link}: {when}"
    reminder: "${w.done} {when}"
  manage:
    title: ${w.link}
    booked: "${w.done} {when}"
    cancel: ${w.submit}
    moveLabel: ${w.link}
    move: ${w.submit}
    cancelled: ${w.done}
    moved: "${w.done} {when}"
    gone: ${w.done}
    unknown: ${w.done}
`;

let content;
let site;
let server;

test.beforeAll(async () => {
  // The build takes a minute or two, more on a busy machine; this timeout is the hook's.
  test.setTimeout(300_000);
  content = contentCopy(
    (yaml) =>
      `${yaml.replace(/^ {4}phone: off$/m, '    phone: optional')}\nbooking:\n  timeZone: ${BROKER_ZONE}\n  hours:\n${HOURS}\n  slotMinutes: 30\n  noticeHours: 0\n  daysAhead: 3\n${texts(WORDS.en, 'The agent of {broker} may be paid based on your enrollment.')}`,
  );
  appendFileSync(
    join(content.dir, 'es/site.yaml'),
    `\nbooking:\n${texts(WORDS.es, 'El agente de {broker} puede recibir un pago según su inscripción.')}`,
  );
  site = await buildSite(content.dir);
  // The inbox's page, which buildSite leaves out, from the main build (its assets beside).
  const built = realpathSync(join(repoRoot, 'frontend/dist'));
  cpSync(join(built, 'admin.html'), join(site.dist, 'admin.html'));
  cpSync(join(built, 'assets'), join(site.dist, 'assets'), { recursive: true, force: false });
  server = await startServer({
    staticDir: site.dist,
    env: { ADMIN_PASSWORD_HASH },
  });
});
test.afterAll(async () => {
  await server?.stop();
  site?.dispose();
  content?.dispose();
});

for (const [language, prefix] of [
  ['en', ''],
  ['es', '/es'],
]) {
  const w = WORDS[language];
  test(`${prefix}/: a quote followed by a booking joins the quote's lead, shown with its call in the inbox`, async ({
    openPage,
  }) => {
    const { page } = await openPage({ viewport: VIEWPORTS.mobile, timezoneId: VISITOR_ZONE });
    const email = `join-${language}@example.com`;
    await gotoHydrated(page, `${server.url}${prefix}/`);
    const form = page.locator('form[action="/api/quote-requests"]').first();
    await form.locator('select[name="product"]').selectOption('medicare');
    await form.locator('input[name="email"]').fill(email);
    await form.locator('input[name="phone"]').fill('(555) 555-0142');
    await form.locator('button[type="submit"]').click();

    // The notification links to the booking page with the lead's reference, and stays.
    const link = page.getByRole('link', { name: w.link }).and(page.locator('a[href*="?lead="]'));
    await expect(link).toHaveAttribute('href', new RegExp(`^${prefix}/book\\?lead=`));
    const lead = (await link.getAttribute('href')).split('lead=')[1].split('.')[0];
    await page.waitForTimeout(5500);
    await expect(link).toBeVisible();
    await link.click();

    // Pre-filled; the visitor chooses a time, signs and agrees to talk about Part D.
    await expect(page).toHaveURL(new RegExp(`${prefix}/book\\?lead=`));
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.locator('input[name="phone"]')).toHaveValue('(555) 555-0142');
    await page.locator('input[name="slot"]').nth(3).check();
    await page.getByLabel(w.name).fill('Ana Ruiz');
    await page.getByLabel(w.soa).check();
    await page.getByRole('button', { name: w.submit }).click();
    await expect(page.getByText(w.done)).toBeVisible();

    // The lead's page in the inbox shows the call and its Scope of Appointment.
    await signIn(page, server.url);
    await page.goto(`${server.url}/admin#lead/${lead}`);
    const calls = page.getByRole('region', { name: 'Booked calls' });
    await expect(calls).toBeVisible();
    await expect(calls.getByText('Part D')).toBeVisible();
    await expect(calls).toContainText('Ana Ruiz');
    await expect(calls.getByText('Statement SHA-256')).toBeVisible();
    await expect(page.getByText(email).first()).toBeVisible();
  });

  for (const script of [true, false]) {
    test(`${prefix}/book ${script ? 'with JavaScript: the visitor' : 'without JavaScript: the broker'}'s zone`, async ({
      openPage,
    }) => {
      const { page } = await openPage({
        viewport: VIEWPORTS.mobile,
        timezoneId: VISITOR_ZONE,
        javaScriptEnabled: script,
      });
      await page.goto(`${server.url}${prefix}/book`);
      const first = page.locator('input[name="slot"]').first();
      const instant = await first.getAttribute('value');
      // The value stays the instant, RFC 3339, whatever the label says.
      expect(instant).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const label = page.locator(`span[data-at="${instant}"]`);
      // The clock's digits only: Node's and Chromium's ICU may space the rest differently.
      const hour = (zone) =>
        new Intl.DateTimeFormat(language === 'es' ? 'es' : 'en-US', {
          hour: 'numeric',
          minute: '2-digit',
          timeZone: zone,
        })
          .format(new Date(instant))
          .match(/\d{1,2}:\d{2}/)[0];
      if (script) {
        await expect(page.getByText(w.yourZone)).toBeVisible();
        await expect(label).toContainText(hour(VISITOR_ZONE));
      } else {
        await expect(page.getByText(w.zone)).toBeVisible();
        await expect(label).toContainText(/C[SD]T/);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(
        true,
      );
    });
  }
}

test("the inbox's Calls view lists today's, upcoming and past calls, each linking to its lead", async ({
  openPage,
}) => {
  const { page } = await openPage({ viewport: VIEWPORTS.mobile });
  // A booking of its own, a lead of its own, without a quote.
  await page.goto(`${server.url}/book`);
  const chosen = await page.locator('input[name="slot"]').last().getAttribute('value');
  await page.locator(`input[name="slot"][value="${chosen}"]`).check();
  await page.getByLabel(WORDS.en.name).fill('Bo Calls');
  await page.getByLabel('Email').fill('bo-calls@example.com');
  await page.getByLabel(WORDS.en.soa).check();
  await page.getByRole('button', { name: WORDS.en.submit }).click();
  await expect(page.getByText(WORDS.en.done)).toBeVisible();

  await signIn(page, server.url);
  await page.getByRole('link', { name: 'Calls', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Calls' })).toBeFocused();
  for (const group of ['Today', 'Upcoming', 'Past'])
    await expect(
      page.getByRole('heading', { level: 2, name: new RegExp(`^${group} `) }),
    ).toBeVisible();
  const call = page.getByRole('listitem').filter({ hasText: 'Bo Calls' });
  await expect(call).toHaveCount(1);
  await expect(call.getByText('Part D')).toBeVisible();
  await call.getByRole('link', { name: 'Its lead' }).click();
  await expect(page).toHaveURL(/#lead\//);
  await expect(page.getByText('bo-calls@example.com').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Booked calls' })).toContainText('Bo Calls');
});
