// Leads only people make, in Chromium against the release backend: a page on another site
// cannot make its visitors' browsers post leads (a silent `fetch(mode: 'no-cors')` and its form
// alike: nothing stored, and a visitor its form sent is shown the way to ours); a person's post,
// with the form's script and without it, is a lead, while a script that never loaded the page is
// answered alike and held as spam.
import { createServer } from 'node:http';
import { chooseProduct, gotoHydrated } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

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

test.describe('spam and forged posts', () => {
  const shared = sharedServer({ env: { FORM_MIN_FILL_SECONDS: String(FILL_SECONDS) } });

  test('a page on another site cannot make its visitors post leads', async ({ openPage }) => {
    const { server } = shared;
    const elsewhere = await otherSite(server.url);
    const { page, context } = await openPage({ allowErrors: [/status of 403/] });
    try {
      await page.goto(elsewhere.url);
      expect(await page.evaluate(() => window.posted), 'the browser sent it').toBe('sent');
      await Promise.all([
        page.waitForURL(`${server.url}/api/quote-requests`),
        page.evaluate(() => document.getElementById('elsewhere').submit()),
      ]);
      await expect(page.getByRole('heading', { name: 'Please use our quote form' })).toBeVisible();
      await page.getByRole('link', { name: 'Go to the quote form' }).click();
      await expect(page).toHaveURL(`${server.url}/#quote`);
      expect(server.rows(), 'nothing stored').toEqual([]);
      const refused = server.log().match(/"status":403/g) ?? [];
      expect(refused.length, `both posts refused:\n${server.log()}`).toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
      await elsewhere.close();
    }
  });

  test("a person's post is a lead, with the form's script and without it", async ({ openPage }) => {
    const { server } = shared;
    for (const [email, options] of [
      ['live.person@example.com', {}],
      ['plain.person@example.com', { javaScriptEnabled: false }],
    ]) {
      const { page, context } = await openPage(options);
      try {
        if (options.javaScriptEnabled === false) await page.goto(server.url);
        else await gotoHydrated(page, server.url);
        await chooseProduct(page, 'Family Health');
        await page.getByPlaceholder('Enter your email address').fill(email);
        // A person takes a moment; the page's token is younger than FORM_MIN_FILL_SECONDS until then.
        await page.waitForTimeout(FILL_SECONDS * 1000);
        await page.getByRole('button', { name: 'Get a Quote' }).click();
        await expect(page.getByText('Quote request submitted!').first()).toBeVisible();
      } finally {
        await context.close();
      }
    }
    const script = await fetch(`${server.url}/api/quote-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'family', email: 'script@example.com' }),
    });
    expect(script.status, 'a script gets the answer a person gets').toBe(201);
    expect(held(server)).toEqual({
      'live.person@example.com': ['new', null],
      'plain.person@example.com': ['new', null],
      'script@example.com': ['spam', 'no_token'],
    });
  });
});
