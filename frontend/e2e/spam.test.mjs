// Leads only people make, in Chromium against the release backend: a page on another site
// cannot make its visitors' browsers post leads (a silent `fetch(mode: 'no-cors')` and its form
// alike: nothing stored, and a visitor its form sent is shown the way to ours); a person's post,
// with the form's script and without it, is a lead, while a script that never loaded the page is
// answered alike and held as spam.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { launchBrowser, openPage } from './support/browser.mjs';
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';

/** Shorter than the default 3 s, so the test waits less; still more than the page needs. */
const FILL_SECONDS = 2;

/** A page on another loopback origin that posts to `target` as its visitors' browsers. */
async function otherSite(target) {
  const action = `${target}/api/quote-requests`;
  const html = `<!doctype html><title>Elsewhere</title>
<form id="elsewhere" method="post" action="${action}">
  <input name="product" value="family"><input name="email" value="form.elsewhere@example.com">
</form>
<script>
  window.posted = fetch(${JSON.stringify(action)}, {
    mode: 'no-cors',
    method: 'POST',
    body: new URLSearchParams({ product: 'family', email: 'fetch.elsewhere@example.com', website: '' }),
  }).then(() => 'sent', (error) => 'not sent: ' + error);
</script>`;
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  // 127.0.0.2 is another origin and another site than the backend's 127.0.0.1.
  await new Promise((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    url: `http://127.0.0.2:${server.address().port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Each stored row's e-mail with its status and why it is spam. */
const held = (server) =>
  Object.fromEntries(server.rows().map((row) => [row.email, [row.status, row.spam_reason]]));

describe('spam and forged posts', () => {
  let browser;
  let server;
  before(async () => {
    [browser, server] = await Promise.all([
      launchBrowser(),
      startServer({ env: { FORM_MIN_FILL_SECONDS: String(FILL_SECONDS) } }),
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a page on another site cannot make its visitors post leads', async () => {
    const elsewhere = await otherSite(server.url);
    const { page, context } = await openPage(browser, { allowErrors: [/status of 403/] });
    try {
      await page.goto(elsewhere.url);
      assert.equal(await page.evaluate(() => window.posted), 'sent', 'the browser sent it');
      await Promise.all([
        page.waitForURL(`${server.url}/api/quote-requests`),
        page.evaluate(() => document.getElementById('elsewhere').submit()),
      ]);
      await page.getByRole('heading', { name: 'Please use our quote form' }).waitFor();
      await page.getByRole('link', { name: 'Go to the quote form' }).click();
      await page.waitForURL(`${server.url}/#quote`);
      assert.deepEqual(server.rows(), [], 'nothing stored');
      const refused = server.log().match(/"status":403/g) ?? [];
      assert.ok(refused.length >= 2, `both posts refused:\n${server.log()}`);
    } finally {
      await context.close();
      await elsewhere.close();
    }
  });

  test("a person's post is a lead, with the form's script and without it", async () => {
    for (const [email, options] of [
      ['live.person@example.com', {}],
      ['plain.person@example.com', { javaScriptEnabled: false }],
    ]) {
      const { page, context } = await openPage(browser, options);
      try {
        if (options.javaScriptEnabled === false) await page.goto(server.url);
        else await gotoHydrated(page, server.url);
        await chooseProduct(page, 'Family Health');
        await page.getByPlaceholder('Enter your email address').fill(email);
        // A person takes a moment; the page's token is younger than FORM_MIN_FILL_SECONDS until then.
        await page.waitForTimeout(FILL_SECONDS * 1000);
        await page.getByRole('button', { name: 'Get a Quote' }).click();
        await page.getByText('Quote request submitted!').first().waitFor();
      } finally {
        await context.close();
      }
    }
    const script = await fetch(`${server.url}/api/quote-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'family', email: 'script@example.com' }),
    });
    assert.equal(script.status, 201, 'a script gets the answer a person gets');
    assert.deepEqual(held(server), {
      'live.person@example.com': ['new', null],
      'plain.person@example.com': ['new', null],
      'script@example.com': ['spam', 'no_token'],
    });
  });
});
