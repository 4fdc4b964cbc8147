// The REAL @vapi-ai/web in Chromium against the real built site and backend. The provider's
// cloud is the only stand-in: this test serves POST /call/web itself on 127.0.0.1 and points
// the SDK at it through VAPI_API_BASE_URL; daily.co's call machine is unreachable (blocked).
import { createServer } from 'node:http';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';
import { acceptConsent } from './support/voice-consent.mjs';

const PUBLIC_KEY = 'pk-e2e-public';
const ASSISTANT_ID = 'asst-e2e-42';
const SDK_CHUNK = /\/assets\/vapi-[\w-]+\.js$/;

/** The provider's POST /call/web, answering with `answer(body)` -> { status, json }. */
async function startProviderStandIn(answer) {
  const calls = [];
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-allow-methods': 'POST',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const call = {
        method: req.method,
        path: req.url,
        authorization: req.headers.authorization,
        body: JSON.parse(raw || 'null'),
      };
      calls.push(call);
      const { status, json } =
        req.method === 'POST' && req.url === '/call/web'
          ? answer(call)
          : { status: 404, json: { message: 'Not Found' } };
      res
        .writeHead(status, { ...cors, 'content-type': 'application/json' })
        .end(JSON.stringify(json));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A page of the test's `openPage` fixture on a server of its own pointed at the stand-in. */
async function withSite(openPage, answer, run, pageOptions) {
  const provider = await startProviderStandIn(answer);
  const site = await startServer({
    env: {
      VAPI_PUBLIC_KEY: PUBLIC_KEY,
      VAPI_ASSISTANT_ID: ASSISTANT_ID,
      VAPI_API_BASE_URL: provider.url,
    },
  });
  const { page, context, errors } = await openPage(pageOptions);
  // A visitor who accepted the notice before a call (voice-button.test.mjs tests it).
  await acceptConsent(context);
  const sdkRequests = [];
  page.on('request', (r) => SDK_CHUNK.test(new URL(r.url()).pathname) && sdkRequests.push(r.url()));
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  // daily-js fetches its call machine from its CDN; here that CDN is unreachable, always.
  await context.route(/^https:\/\/([\w-]+\.)*daily\.co\//, (route) =>
    route.abort('internetdisconnected'),
  );
  try {
    await page.goto(site.url);
    await run({ page, provider, sdkRequests, consoleLines });
    expect(errors, 'no uncaught page errors').toEqual([]);
  } finally {
    await context.close();
    await site.stop();
    await provider.stop();
  }
}

/** The alert the page shows once back to idle. */
async function clickAndExpectIdleWithError(page, sdkRequests) {
  const idle = page.getByRole('button', { name: 'Habla con nuestro asistente' });
  await expect(idle).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(sdkRequests, 'the SDK chunk is not loaded before the visitor asks for it').toEqual([]);
  await idle.click();
  await expect(page.getByRole('button', { name: 'Conectando...' }).or(idle).first()).toBeVisible();
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible({ timeout: 60_000 });
  expect(sdkRequests, 'the SDK chunk is loaded once, on the click').toHaveLength(1);
  await expect(page.getByRole('button', { name: 'Habla con nuestro asistente' })).toBeVisible();
  return alert;
}

test.describe('the real Vapi web SDK against a local stand-in of the provider', () => {
  test('provider error: the assistant id and bearer key are sent, the page returns to idle with a message', async ({
    openPage,
  }) => {
    await withSite(
      openPage,
      () => ({
        status: 400,
        json: { message: ['assistantId must be a UUID'], error: 'Bad Request', statusCode: 400 },
      }),
      async ({ page, provider, sdkRequests, consoleLines }) => {
        const alert = await clickAndExpectIdleWithError(page, sdkRequests);
        await expect(alert).toHaveText(
          'El asistente no está disponible ahora. Inténtalo más tarde.',
        );
        expect(provider.calls).toHaveLength(1);
        expect(provider.calls[0].authorization).toBe(`Bearer ${PUBLIC_KEY}`);
        expect(provider.calls[0].body.assistantId).toBe(ASSISTANT_ID);
        expect(
          consoleLines.some((l) => l.startsWith('error: Error connecting to Vapi')),
          consoleLines.join('\n'),
        ).toBeTruthy();
      },
      { expectErrors: [/status of 400 .*\/call\/web:/, /Error connecting to Vapi/] },
    );
  });

  test('the call room cannot be reached: the page returns to idle with a message', async ({
    openPage,
  }) => {
    await withSite(
      openPage,
      () => ({
        status: 201,
        json: { id: 'call-e2e', webCallUrl: 'https://e2e-standin.daily.co/room-1' },
      }),
      async ({ page, provider, sdkRequests, consoleLines }) => {
        const alert = await clickAndExpectIdleWithError(page, sdkRequests);
        await expect(alert).toHaveText(
          'El asistente no está disponible ahora. Inténtalo más tarde.',
        );
        expect(provider.calls[0].body.assistantId).toBe(ASSISTANT_ID);
        expect(
          consoleLines.some((l) => l.startsWith('error: Error connecting to Vapi')),
          consoleLines.join('\n'),
        ).toBeTruthy();
        expect(consoleLines.some((l) => l.includes('Llamada iniciada'))).toBe(false);
      },
      {
        expectErrors: [/ERR_INTERNET_DISCONNECTED .*daily\.co\//, /Error connecting to Vapi/],
        // daily-js reports its failure to its Sentry, which the page's Content-Security-Policy refuses.
        allowErrors: [/ingest\.sentry\.io/],
      },
    );
  });
});
