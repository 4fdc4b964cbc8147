// The broker's inbox (/admin) in Chromium against the release backend, on SQLite and on
// PostgreSQL (TEST_DATABASE_URL; reported SKIPPED without it): sign in, a web and a voice lead
// listed, filter and search, the voice lead's transcript, mark it contacted, delete the other
// after confirming, download the CSV and read it back, sign out; spam only under its filter,
// marked not spam and spam again. Also: the cookies' attributes over http (the session's and the
// known-browser mark's), no password hash, session id or deleted e-mail in the server's log, and
// axe on the sign-in, list and lead pages at phone and desktop sizes. On a phone (390x844): the
// newest lead in the upper half of the first screen, the filters behind a button, no console
// error on load. A note kept with a lead and in the CSV, named with the day. Sign out everywhere
// from one browser ends another's session (and leaves the browser known). The call's recording,
// copied by the backend from a stand-in provider on loopback, plays on the conversation's page
// (axe there too) from the site's own copy; the lead's records for an auditor download as a ZIP
// holding it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { outputDir } from './support/browser.mjs';
import { ADMIN_PASSWORD, ADMIN_PASSWORD_HASH, signIn } from './support/inbox.mjs';
import { axeViolations } from './support/landing.mjs';
import { formCookie, startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const [HASH, PASSWORD] = [ADMIN_PASSWORD_HASH, ADMIN_PASSWORD];
const VOICE_SECRET = 'e2e-voice-secret-0123456789abcdef01';
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1350, height: 940 } };
const NOTE = 'Call back Tuesday after 5 pm.';
const WEB_EMAIL = 'web.lead@example.com';
const VOICE_EMAIL = 'voice.lead@example.com';
/** Posted by a script that never loaded the page: held as spam. */
const SPAM_EMAIL = 'script.spam@example.com';
const TRANSCRIPT = 'AI: Hello, how can I help?\nUser: I would like a Medicare quote.';
/** When the call started, as its end-of-call report says. */
const STARTED_AT = '2026-11-26T15:04:00.000Z';

/** A small valid WAV: a quarter of a second of a 440 Hz tone, 8 kHz mono 16-bit PCM. */
function wav() {
  const rate = 8000;
  const samples = rate / 4;
  const audio = Buffer.alloc(44 + samples * 2);
  audio.write('RIFF', 0);
  audio.writeUInt32LE(36 + samples * 2, 4);
  audio.write('WAVEfmt ', 8);
  audio.writeUInt32LE(16, 16);
  audio.writeUInt16LE(1, 20); // PCM
  audio.writeUInt16LE(1, 22); // mono
  audio.writeUInt32LE(rate, 24);
  audio.writeUInt32LE(rate * 2, 28);
  audio.writeUInt16LE(2, 32);
  audio.writeUInt16LE(16, 34);
  audio.write('data', 36);
  audio.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return audio;
}
const WAV = wav();
const WAV_SHA256 = createHash('sha256').update(WAV).digest('hex');

/**
 * The voice provider's storage, on loopback: serves the call's recording as the provider's
 * recordingUrl does (audio/wav), and counts the downloads.
 */
async function startRecordingStandIn() {
  let downloads = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/recordings/call-e2e.wav') {
      response.writeHead(404).end();
      return;
    }
    downloads += 1;
    response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': WAV.length });
    response.end(WAV);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/recordings/call-e2e.wav`,
    downloads: () => downloads,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function post(url, path, body, headers = {}) {
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status} ${await response.clone().text()}`).toBeTruthy();
  return response.json();
}

/**
 * A web lead through the quote API (with the token a page gives), a post without one (spam), and
 * a voice lead through the webhook, with its report (its recording at `recording`).
 */
async function seed(url, recording) {
  await post(url, '/api/quote-requests', { product: 'individual', email: SPAM_EMAIL });
  await post(
    url,
    '/api/quote-requests',
    // From the Spanish page.
    { product: 'family', email: WEB_EMAIL, lang: 'es' },
    { cookie: await formCookie(url) },
  );
  const voice = { 'x-vapi-secret': VOICE_SECRET };
  const call = { id: 'call-e2e' };
  await post(
    url,
    '/api/vapi/webhook',
    {
      message: {
        type: 'tool-calls',
        call,
        toolCallList: [
          {
            id: 't1',
            name: 'request_quote',
            parameters: { product: 'medicare', email: VOICE_EMAIL },
          },
        ],
      },
    },
    voice,
  );
  await post(
    url,
    '/api/vapi/webhook',
    {
      message: {
        type: 'end-of-call-report',
        call,
        startedAt: STARTED_AT,
        endedReason: 'customer-ended-call',
        analysis: { summary: 'Wants a Medicare quote.' },
        artifact: { transcript: TRANSCRIPT, recordingUrl: recording },
      },
    },
    voice,
  );
}

/**
 * The inbox's tests on one database: one server and one seed for all of them, which run in order
 * (the first deletes the web lead). `database.skip`, when set, is the reason they are skipped.
 */
function inboxSuite(name, database) {
  test.describe(`inbox on ${name}`, () => {
    test.skip(database.skip !== undefined, database.skip);
    let server;
    let provider;
    test.beforeAll(async () => {
      const databaseUrl = database.create?.();
      provider = await startRecordingStandIn();
      server = await startServer({
        databaseUrl,
        // Forwarding to a closed port: each lead has a webhook delivery that keeps failing.
        env: {
          ADMIN_PASSWORD_HASH: HASH,
          VAPI_WEBHOOK_SECRET: VOICE_SECRET,
          LEAD_WEBHOOK_URL: 'http://127.0.0.1:9/leads',
          RECORDING_ORIGINS: new URL(provider.url).origin,
        },
      });
      await seed(server.url, provider.url);
    });
    test.afterAll(async () => {
      await server?.stop();
      await provider?.stop();
      database.drop?.();
    });

    test('sign in, find, read, mark, delete, export and sign out', async ({ openPage }) => {
      const { page, context } = await openPage({
        viewport: SIZES.desktop,
        acceptDownloads: true,
        // The wrong password, and the API after signing out, are answered 401, which Chromium logs.
        expectErrors: [/status of 401/],
      });
      const admin = new URL('/admin', server.url).href;
      const response = await page.goto(admin);
      expect(response.headers()['x-robots-tag']).toBe('noindex, nofollow');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute(
        'content',
        'noindex, nofollow',
      );
      await expect(page.getByRole('heading', { name: 'Sign in to the inbox' })).toBeVisible();

      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(
        page.getByRole('alert').filter({ hasText: 'The password is wrong.' }),
      ).toBeVisible();

      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
      const cookies = await context.cookies();
      expect(cookies.map((c) => c.name).sort()).toEqual(['inbox_known', 'inbox_session']);
      const cookie = cookies.find((c) => c.name === 'inbox_session');
      // The known-browser mark goes only to the sign-in, for 400 days (its own line of checks).
      const mark = cookies.find((c) => c.name === 'inbox_known');
      expect({
        httpOnly: mark.httpOnly,
        sameSite: mark.sameSite,
        secure: mark.secure,
        path: mark.path,
        days: Math.round((mark.expires - Date.now() / 1000) / 86_400),
      }).toEqual({
        httpOnly: true,
        sameSite: 'Strict',
        secure: false,
        path: '/api/admin/session',
        days: 400,
      });
      expect({
        name: cookie.name,
        httpOnly: cookie.httpOnly,
        sameSite: cookie.sameSite,
        secure: cookie.secure,
        path: cookie.path,
      }).toEqual({
        name: 'inbox_session',
        httpOnly: true,
        sameSite: 'Strict',
        secure: false,
        path: '/',
      });
      expect(await page.evaluate(() => document.cookie), 'HttpOnly: not readable by scripts').toBe(
        '',
      );

      const table = page.locator('table');
      await expect(table.getByRole('link', { name: WEB_EMAIL })).toBeVisible();
      await expect(table.getByRole('link', { name: VOICE_EMAIL })).toBeVisible();
      // The language to answer in: the web lead came from /es/, the call from /.
      const rowOf = (email) =>
        table.locator('tbody tr', { has: page.getByRole('link', { name: email }) });
      await expect(rowOf(WEB_EMAIL)).toContainText(/Spanish/, { useInnerText: true });
      await expect(rowOf(VOICE_EMAIL)).toContainText(/English/, { useInnerText: true });

      // Filter by source, then search by e-mail.
      await page.getByLabel('Source').selectOption('voice');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
      ).toBeVisible();
      await expect(table.getByRole('link', { name: WEB_EMAIL })).toHaveCount(0);
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByLabel('Search by e-mail').fill('WEB.lead');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
      ).toBeVisible();
      await expect(table.getByRole('link', { name: WEB_EMAIL })).toBeVisible();
      await page.getByRole('button', { name: 'Clear' }).click();

      // The voice lead: its call, transcript and recording; mark it contacted.
      await table.getByRole('link', { name: VOICE_EMAIL }).click();
      await expect(page.getByRole('heading', { name: VOICE_EMAIL })).toBeVisible();
      await expect(page.getByText('Wants a Medicare quote.')).toBeVisible();
      await expect(page.getByText('Delivery: Webhook')).toBeVisible();
      await expect(page.getByText('The caller hung up')).toBeVisible();
      // Line for line: toHaveText would read the transcript's line break as a space.
      await expect(page.locator('p.whitespace-pre-wrap')).toHaveJSProperty('innerText', TRANSCRIPT);
      await expect(page.getByRole('link', { name: 'Answer by e-mail' })).toHaveAttribute(
        'href',
        `mailto:${VOICE_EMAIL}?subject=Your%20Medicare%20quote%20from%20Clearharbor%20Health`,
      );
      await page.getByLabel('Note').fill(NOTE);
      await page.getByRole('button', { name: 'Save note' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Note saved.' })).toBeVisible();
      // The stand-in's address is plain http: the inbox links no such provider address.
      await expect(page.getByRole('link', { name: 'Listen to the recording' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Mark contacted' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Marked as contacted.' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Mark as new' })).toBeVisible();

      // The call it came from, among the kept conversations, with its whole transcript, once the
      // backend has copied its recording from the provider (it polls every 2 s).
      // Asked from Node: page.waitForFunction takes an async check's promise as truthy at once.
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const response = await fetch('/api/admin/conversations/call-e2e');
              return response.ok && (await response.json()).recording?.status === 'stored';
            }),
          { timeout: 20_000, intervals: [250], message: "the call's recording copied" },
        )
        .toBe(true);
      expect(provider.downloads(), 'copied once').toBe(1);
      // As this browser shows a time (format.ts), in its own zone.
      const started = await page.evaluate(
        (at) =>
          new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
            new Date(at),
          ),
        STARTED_AT,
      );
      await page.getByRole('link', { name: 'Conversations' }).click();
      await expect(page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
      await page.getByRole('link', { name: `Call, ${started}` }).click();
      await expect(page.getByRole('heading', { name: 'Conversation call-e2e' })).toBeVisible();
      await expect(page.locator('pre')).toHaveJSProperty('innerText', TRANSCRIPT);
      // Its 4,044 bytes, as a file manager counts them.
      await expect(page.getByText('Kept on this site, 4 KB, SHA-256')).toBeVisible();
      await expect(page.getByTitle(WAV_SHA256)).toHaveText(`${WAV_SHA256.slice(0, 12)}…`, {
        useInnerText: true,
      });

      // The recording plays from the site's own copy: its src answers the copied bytes.
      const player = page.getByLabel('Call recording');
      await expect(player).toHaveAttribute('preload', 'none');
      const src = '/api/admin/conversations/call-e2e/recording';
      await expect(player).toHaveAttribute('src', src);
      await expect(page.getByRole('link', { name: 'Download the recording' })).toHaveAttribute(
        'href',
        src,
      );
      const served = await page.evaluate(async (url) => {
        const response = await fetch(url);
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          etag: response.headers.get('etag'),
          bytes: [...new Uint8Array(await response.arrayBuffer())],
        };
      }, src);
      expect({ ...served, bytes: Buffer.from(served.bytes).equals(WAV) }).toEqual({
        status: 200,
        type: 'audio/wav',
        etag: `"${WAV_SHA256}"`,
        bytes: true,
      });
      // And Chromium's player reads it as audio: a quarter of a second.
      const duration = await player.evaluate(
        (audio) =>
          new Promise((resolve, reject) => {
            audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
            audio.addEventListener('error', () => reject(new Error(`${audio.error?.code}`)), {
              once: true,
            });
            audio.preload = 'metadata';
            audio.load();
          }),
      );
      expect(Math.abs(duration - 0.25), `duration ${duration}`).toBeLessThan(0.01);
      expect(await axeViolations(page), 'conversation page').toEqual([]);

      // Its lead's records for an auditor: a ZIP holding the recording, listed in its manifest.
      await page.getByRole('link', { name: 'Its lead' }).click();
      await expect(page.getByRole('heading', { name: VOICE_EMAIL })).toBeVisible();
      const voiceId = await page.evaluate(() => location.hash.slice(6));
      const records = page.getByRole('link', { name: 'Download records (ZIP)' });
      const zip = await page.evaluate(
        async (url) => {
          const response = await fetch(url);
          return {
            status: response.status,
            type: response.headers.get('content-type'),
            disposition: response.headers.get('content-disposition'),
            bytes: [...new Uint8Array(await response.arrayBuffer())],
          };
        },
        await records.getAttribute('href'),
      );
      expect({ status: zip.status, type: zip.type, disposition: zip.disposition }).toEqual({
        status: 200,
        type: 'application/zip',
        disposition: `attachment; filename="lead-${voiceId}-records.zip"`,
      });
      const archive = Buffer.from(zip.bytes);
      expect(archive.subarray(0, 2).toString('latin1')).toBe('PK');
      // Its files are stored uncompressed: their names and the manifest's hashes read as they are.
      const text = archive.toString('latin1');
      for (const name of ['lead.json', 'consent.json', 'conversation.json', 'manifest.json']) {
        expect(text.includes(`lead-${voiceId}/${name}`), name).toBeTruthy();
      }
      expect(text.includes(`lead-${voiceId}/recording.wav`), 'recording.wav').toBeTruthy();
      expect(archive.includes(WAV), 'the recording, byte for byte').toBeTruthy();
      expect(text.includes(WAV_SHA256), "the recording's SHA-256 in the manifest").toBeTruthy();
      // The link downloads it, named by the server.
      const [recordsFile] = await Promise.all([page.waitForEvent('download'), records.click()]);
      expect(recordsFile.suggestedFilename()).toBe(`lead-${voiceId}-records.zip`);
      const saved = readFileSync(await recordsFile.path());
      expect(saved.subarray(0, 2).equals(Buffer.from('PK')) && saved.includes(WAV)).toBeTruthy();

      // The web lead: delete it after confirming.
      await page.getByRole('link', { name: 'Leads' }).click();
      await table.getByRole('link', { name: WEB_EMAIL }).click();
      await expect(page.getByRole('heading', { name: WEB_EMAIL })).toBeVisible();
      await expect(page.getByText('Spanish', { exact: true })).toBeVisible();
      const webId = await page.evaluate(() => location.hash.slice(6));
      // By keyboard: the dialog takes focus, Escape closes it and gives focus back; then Cancel.
      const deleteButton = page.getByRole('button', { name: 'Delete lead' });
      await deleteButton.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Delete this lead?' });
      await expect(dialog).toBeVisible();
      await expect
        .poll(() => dialog.evaluate((el) => el.contains(document.activeElement)), {
          message: 'focus is in the dialog',
        })
        .toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).not.toBeAttached();
      await expect(deleteButton, 'focus is back').toBeFocused();
      await deleteButton.click();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).not.toBeAttached();
      await page.getByRole('button', { name: 'Delete lead' }).click();
      await dialog.getByRole('button', { name: 'Delete for good' }).click();
      await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
      await expect(
        page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
      ).toBeVisible();
      await expect(table.getByRole('link', { name: WEB_EMAIL })).toHaveCount(0);
      await expect(table.locator('tbody tr')).toContainText(
        /Contacted[\s\S]*Webhook: (pending|undelivered)/,
        { useInnerText: true },
      );

      // The CSV of the current filter, read back.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      // Records end at a line break outside quotes (a cell's own line breaks are quoted).
      const lines = csv.trim().split(/\r?\n(?=(?:[^"]*"[^"]*")*[^"]*$)/);
      expect(lines.length, csv).toBe(2);
      // A list carries no transcript: the lead's own page showed it.
      expect(csv.includes(TRANSCRIPT), csv).toBe(false);
      expect(lines[0]).toMatch(/^"?id"?,"?created_at"?,"?product"?,"?email"?/);
      expect(lines[1].includes(VOICE_EMAIL) && !csv.includes(WEB_EMAIL), csv).toBeTruthy();
      expect(
        lines[0].endsWith(
          '"note","language","consent_channel","consent_notice_sha256","consent_notice","phone","may_call","call_consent","zip","state","licensed","written_later_channel","written_later_at"',
        ),
        csv,
      ).toBeTruthy();
      // The voice lead's consent record: the notice its page shows, which the assistant said.
      expect(
        lines[1].includes(`"${NOTE}","en","voice",`) &&
          lines[1].endsWith(
            '"A licensed insurance agent of Clearharbor Health will contact you about your quote.","","","","","","","",""',
          ),
        csv,
      ).toBeTruthy();

      // Sign out: the sign-in form again, and the API no longer answers this browser.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Sign in to the inbox' })).toBeVisible();
      const status = await page.evaluate(
        async () => (await fetch('/api/admin/quote-requests')).status,
      );
      expect(status).toBe(401);

      // The log: the deletion with the lead's id; never its e-mail, the hash or the session id.
      const log = server.log();
      expect(
        log.split('\n').some((line) => line.includes('lead deleted') && line.includes(webId)),
        log,
      ).toBeTruthy();
      for (const secret of [WEB_EMAIL, HASH, PASSWORD, cookie.value, mark.value]) {
        expect(!log.includes(secret), `the log holds ${secret}`).toBeTruthy();
      }
    });

    test('spam is listed only under its filter, where it can be marked not spam, and back', async ({
      openPage,
    }) => {
      const { page } = await openPage({ viewport: SIZES.desktop });
      await signIn(page, server.url);
      await expect(page.getByRole('status').filter({ hasText: / on this page\./ })).toBeVisible();
      const table = page.locator('table');
      await expect(table.getByRole('link', { name: SPAM_EMAIL }), 'not a lead').toHaveCount(0);
      await page.getByLabel('Status').selectOption('spam');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: '1 lead on this page.' }),
      ).toBeVisible();
      await table.getByRole('link', { name: SPAM_EMAIL }).click();
      await expect(page.getByRole('heading', { name: SPAM_EMAIL })).toBeVisible();
      await expect(page.getByText('it did not come from a page of this site')).toBeVisible();
      await page.getByRole('button', { name: 'Not spam' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Marked as not spam' }),
      ).toBeVisible();
      await expect(page.getByText('Delivery: Webhook')).toBeVisible();
      await page.getByRole('button', { name: 'Mark as spam' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Marked as spam' })).toBeVisible();
      await expect(page.getByText('you marked it as spam')).toBeVisible();
    });

    test('"Sign out everywhere" ends the sessions of every browser', async ({ openPage }) => {
      const open = () => openPage({ viewport: SIZES.desktop, allowErrors: [/status of 401/] });
      const [phone, desktop] = [await open(), await open()];
      for (const { page } of [phone, desktop]) await signIn(page, server.url);
      await phone.page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(phone.page.getByText('You are signed out on every device.')).toBeVisible();
      expect(
        (await phone.context.cookies()).map((c) => c.name),
        'this browser forgot its session, not that it is known',
      ).toEqual(['inbox_known']);
      // The other browser's next request finds its session ended.
      await desktop.page.getByRole('button', { name: 'Apply' }).click();
      await expect(
        desktop.page.getByText('Your session has ended. Please sign in again.'),
      ).toBeVisible();
    });

    for (const [size, viewport] of Object.entries(SIZES)) {
      test(`axe at ${size} size (${viewport.width}x${viewport.height}): sign-in, list and lead page`, async ({
        openPage,
      }) => {
        // No console error from loading the inbox signed out (its session check is no 401).
        const { page } = await openPage({ viewport });
        await page.goto(new URL('/admin', server.url).href);
        await expect(page.getByRole('heading', { name: 'Sign in to the inbox' })).toBeVisible();
        expect(await axeViolations(page), 'sign-in').toEqual([]);
        const shot = (name) =>
          page.screenshot({ path: join(outputDir, `inbox-${name}-${size}.png`), fullPage: true });
        await shot('sign-in');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
        await expect(page.getByRole('status').filter({ hasText: / on this page\./ })).toBeVisible();
        expect(await axeViolations(page), 'list').toEqual([]);
        await shot('list');
        if (size === 'phone') {
          // The list first: the newest lead's card starts in the upper half of the first screen.
          const first = page.getByRole('list', { name: 'Leads' }).locator('li').first();
          const box = await first.boundingBox();
          expect(box && box.y < viewport.height / 2, `first lead at ${box?.y}px`).toBeTruthy();
          const filters = page.getByRole('button', { name: 'Filters' });
          await expect(filters).toHaveAttribute('aria-expanded', 'false');
          await expect(page.getByLabel('Source')).toBeHidden();
          await filters.click();
          await expect(page.getByLabel('Source')).toBeVisible();
          // axe reads colours as they are: wait out the button's hover transition it would
          // otherwise catch halfway (a contrast it never has at rest).
          await filters.evaluate((button) =>
            Promise.all(button.getAnimations().map((animation) => animation.finished)),
          );
          await expect(filters).toHaveAttribute('aria-expanded', 'true');
          expect(await axeViolations(page), 'filters open').toEqual([]);
          await shot('filters');
          await filters.click();
          // "Sign out" on one line: its text makes one line box, inside the button.
          const lines = await page
            .getByRole('button', { name: 'Sign out', exact: true })
            .evaluate((button) => {
              const range = document.createRange();
              range.selectNodeContents(button);
              const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              return { lines: tops.size, fits: button.scrollWidth <= button.clientWidth };
            });
          expect(lines).toEqual({ lines: 1, fits: true });
        }
        await page.getByRole('link', { name: VOICE_EMAIL }).click();
        await expect(page.getByRole('heading', { name: VOICE_EMAIL })).toBeVisible();
        expect(await axeViolations(page), 'lead page').toEqual([]);
        await shot('lead');
      });
    }
  });
}

inboxSuite('SQLite', {});

const postgres = process.env.TEST_DATABASE_URL;
let postgresDatabase;
inboxSuite('PostgreSQL', {
  skip: postgres ? undefined : 'TEST_DATABASE_URL is not set',
  create() {
    postgresDatabase = `inbox_e2e_${process.pid}`;
    execFileSync('psql', [postgres, '-qc', `CREATE DATABASE ${postgresDatabase}`]);
    const url = new URL(postgres);
    url.pathname = `/${postgresDatabase}`;
    return url.href;
  },
  drop() {
    if (postgresDatabase)
      execFileSync('psql', [postgres, '-qc', `DROP DATABASE ${postgresDatabase} WITH (FORCE)`]);
  },
});

test('/admin answers 404 when ADMIN_PASSWORD_HASH is unset', async ({ server }) => {
  const response = await fetch(new URL('/admin', server.url));
  expect(response.status).toBe(404);
  expect((await fetch(new URL('/admin.html', server.url))).status).toBe(404);
});
