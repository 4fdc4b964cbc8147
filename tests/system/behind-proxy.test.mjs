// The site as deployed: real Caddy (Debian's package) running deploy/Caddyfile with its own CA
// on loopback ports, under the umask of deploy/caddy.service.d/quotes.conf, in front of the
// release backend with its default settings (rate limit and trusted proxies included). Skipped
// with a message when caddy is not installed (`scripts/setup.sh --test` installs it).
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CADDY, SITE, answering, caddyEnvironment, haveCaddy, send } from '../support/caddy.mjs';
import { freePort } from '../support/free-port.mjs';
import { systemdAnalyze } from '../support/systemd.mjs';
import { ADMIN_PASSWORD_HASH, signIn } from '../../frontend/e2e/support/inbox.mjs';
import { gotoHydrated } from '../../frontend/e2e/support/landing.mjs';
import { repoRoot, startServer } from '../../frontend/e2e/support/server.mjs';
import { expect, test } from '../../frontend/e2e/support/test.mjs';

const CADDYFILE = join(repoRoot, 'deploy/Caddyfile');
const QUOTE = JSON.stringify({ product: 'family', email: 'ana@example.com' });
/** Posted as the browser's form; it must never show in an access log. */
const FORM_EMAIL = 'form.through.caddy@example.com';
/** The umask Debian's caddy.service runs with once the shipped drop-in is installed. */
const CADDY_UMASK = readFileSync(
  join(repoRoot, 'deploy/caddy.service.d/quotes.conf'),
  'utf8',
).match(/^UMask=(0[0-7]{3})$/m)[1];
/** Rolled at 1 MiB here (50 MiB as shipped), so the test can make it roll. */
const ROLL_BYTES = 1024 * 1024;

const postQuote = (port, from, headers = {}) =>
  send({
    port,
    path: '/api/quote-requests',
    method: 'POST',
    from,
    body: QUOTE,
    headers: { 'content-type': 'application/json', ...headers },
  });

test.describe('behind Caddy, as deployed', () => {
  test.skip(!haveCaddy, `${CADDY} is missing: run scripts/setup.sh --test`);
  let server;
  let caddy;
  let dir;
  let httpPort;
  let httpsPort;
  let caddyLog = '';
  let caddyEnv;
  const logDir = () => join(dir, 'log');
  const accessLog = () => join(logDir(), 'access.log');

  test.beforeAll(async () => {
    // The backend's defaults: the rate limit (10 a minute, burst 5) and TRUSTED_PROXIES
    // (loopback); the inbox's password, for its cookie over HTTPS.
    server = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: undefined, ADMIN_PASSWORD_HASH },
    });
    dir = mkdtempSync(join(tmpdir(), 'caddy-e2e-'));
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    caddyEnv = {
      ...caddyEnvironment(dir, httpPort, httpsPort),
      CADDY_ACCESS_LOG: accessLog(),
      CADDY_LOG_ROLL_SIZE: '1MiB',
      BACKEND_ADDRESS: new URL(server.url).host,
    };
    // The log directory as Debian's package makes /var/log/caddy: 0755, so the file's own mode
    // is what keeps other users out.
    execFileSync('install', ['-d', '-m', '755', logDir()]);
    const run = `umask ${CADDY_UMASK} && exec "$0" run --config "$1" --adapter caddyfile`;
    caddy = spawn('sh', ['-c', run, CADDY, CADDYFILE], {
      env: caddyEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout.on('data', (chunk) => (caddyLog += chunk));
    caddy.stderr.on('data', (chunk) => (caddyLog += chunk));
    await answering(caddy, httpsPort, () => caddyLog);
  });

  test.afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy.once('exit', resolve));
      caddy.kill('SIGTERM');
      await exited;
    }
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the page loads over HTTPS in Chromium, with HSTS', async ({ openPage }) => {
    const { page } = await openPage({ ignoreHTTPSErrors: true });
    const response = await gotoHydrated(page, `https://${SITE}:${httpsPort}/`);
    expect(response.status()).toBe(200);
    expect(response.headers()['strict-transport-security']).toMatch(/^max-age=31536000/);
    expect(response.headers()['content-security-policy'], 'the backend answered').toMatch(
      /default-src 'self'/,
    );
  });

  test('the inbox over HTTPS: a Secure __Host- session cookie that works through Caddy', async ({
    openPage,
  }) => {
    const { page, context } = await openPage({ ignoreHTTPSErrors: true });
    await signIn(page, `https://${SITE}:${httpsPort}`);
    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === '__Host-inbox_session');
    const mark = cookies.find((c) => c.name === '__Secure-inbox_known');
    expect({ secure: mark?.secure, path: mark?.path }).toEqual({
      secure: true,
      path: '/api/admin/session',
    });
    expect({
      name: cookie.name,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite: cookie.sameSite,
      path: cookie.path,
    }).toEqual({
      name: '__Host-inbox_session',
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    // The cookie comes back and the page's own origin passes the cross-site check.
    await expect(
      page.getByRole('status').filter({ hasText: / on this page\.|No leads match/ }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the inbox' })).toBeVisible();
    expect(
      (await context.cookies()).map((c) => c.name),
      'signing out cleared the session (the browser stays known)',
    ).toEqual(['__Secure-inbox_known']);
  });

  test('HTTP is redirected to HTTPS', async () => {
    const response = await send({ port: httpPort, path: '/quote?x=1', tls: false });
    expect([301, 308], `status ${response.status}`).toContain(response.status);
    // Caddy 2.6 names no port in the redirect (443 in production, where it is the default).
    const location = new URL(response.headers.location);
    expect([location.protocol, location.hostname, location.pathname + location.search]).toEqual([
      'https:',
      SITE,
      '/quote?x=1',
    ]);
    expect(response.headers['strict-transport-security'], 'HSTS only over HTTPS').toBe(undefined);
  });

  test('20 visitors from 20 networks each get their 201', async () => {
    // Each in a /24 of its own: the addresses of one /24 share a limit as well.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postQuote(httpsPort, `127.0.${i + 2}.1`)),
    );
    expect(
      answers.map((a) => a.status),
      answers.map((a) => a.body).join('\n'),
    ).toEqual(Array(20).fill(201));
  });

  test('a visitor cannot move into another bucket with its own X-Forwarded-For', async () => {
    const [spoofer, victim] = ['127.0.0.40', '127.0.0.41'];
    for (let i = 0; i < 5; i++) {
      expect((await postQuote(httpsPort, spoofer, { 'x-forwarded-for': victim })).status).toBe(201);
    }
    const sixth = await postQuote(httpsPort, spoofer, {
      'x-forwarded-for': '203.0.113.9',
      forwarded: 'for=203.0.113.9',
    });
    expect(sixth.status, 'still counted as itself').toBe(429);
    expect(JSON.parse(sixth.body).code).toBe('rate_limited');
    expect((await postQuote(httpsPort, victim)).status, "the victim's bucket was not spent").toBe(
      201,
    );
  });

  test('the form posted without JavaScript: 303 to the result page, which reads its outcome once', async () => {
    const from = '127.0.0.60';
    const posted = await send({
      port: httpsPort,
      path: '/api/quote-requests',
      method: 'POST',
      from,
      body: `product=family&email=${encodeURIComponent(FORM_EMAIL)}&website=`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status, posted.body).toBe(303);
    expect(posted.headers.location).toBe('/quote-result');
    const cookie = posted.headers['set-cookie'][0].split(';')[0];
    const page = await send({
      port: httpsPort,
      path: '/quote-result',
      from,
      headers: { cookie },
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/Quote request submitted!/);
    expect(page.headers['set-cookie'][0]).toMatch(/^quote_result=;.*Max-Age=0/);
    expect(server.rows().some((row) => row.email === FORM_EMAIL)).toBeTruthy();
  });

  test("Caddy writes its access log, and no typed value is in it or in the backend's", async () => {
    await waitForLogLine((entry) => entry.request?.uri === '/quote-result');
    const text = readFileSync(accessLog(), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      lines.some((line) => line.request?.uri === '/api/quote-requests' && line.status === 201),
    ).toBeTruthy();
    expect(
      lines.some((line) => line.request?.uri === '/quote-result' && line.status === 200),
    ).toBeTruthy();
    for (const [name, log] of [
      ['Caddy', text],
      ['the backend', server.log()],
    ]) {
      for (const value of [FORM_EMAIL, encodeURIComponent(FORM_EMAIL), 'product=family']) {
        expect(log, `${value} in ${name}'s log`).not.toContain(value);
      }
    }
  });

  test("each request's id is Caddy's, in its access log and the backend's log alike", async () => {
    const answer = await send({
      port: httpsPort,
      path: '/healthz',
      headers: { 'x-request-id': 'chosen-by-the-visitor' },
    });
    expect(answer.status).toBe(200);
    const id = answer.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const entry = await waitForLogLine((line) => line.resp_headers?.['X-Request-Id']?.[0] === id);
    expect(entry.request.uri).toBe('/healthz');
    // The backend writes its line as the answer goes out, and its output arrives here later.
    await expect
      .poll(() => server.log().includes(`"request_id":"${id}"`), {
        timeout: 5_000,
        intervals: [100],
        message: 'the id in the backend log',
      })
      .toBe(true);
    expect(server.log()).not.toContain('chosen-by-the-visitor');
  });

  test('no credential reaches the access log, which other users cannot read', async () => {
    const secrets = [
      'vapi-secret-7f3a',
      'admin-token-9c1e',
      'session-cookie-4b2d',
      'proxy-pass-6e8f',
    ];
    const agent = 'credential-probe';
    await send({
      port: httpsPort,
      path: '/api/vapi/webhook',
      method: 'POST',
      body: '{}',
      headers: {
        'user-agent': agent,
        'content-type': 'application/json',
        'x-vapi-secret': secrets[0],
        authorization: `Bearer ${secrets[1]}`,
        cookie: `session=${secrets[2]}`,
        'proxy-authorization': `Basic ${secrets[3]}`,
      },
    });
    const line = await waitForLogLine(
      (entry) => entry.request?.headers?.['User-Agent']?.[0] === agent,
    );
    expect(
      Object.keys(line.request.headers).filter((name) => /secret|authorization|cookie/i.test(name)),
      JSON.stringify(line.request.headers),
    ).toEqual([]);
    const text = readFileSync(accessLog(), 'utf8');
    for (const secret of secrets)
      expect(text, `${secret} is in the access log`).not.toContain(secret);
    expect(statSync(accessLog()).mode & 0o777).toBe(0o640);
  });

  test("the inbox's search by e-mail is not kept in the access log; the other parameters are", async () => {
    const searched = 'ana.lopez@gmail.com';
    const path = `/api/admin/quote-requests?status=new&email=${encodeURIComponent(searched)}&limit=25`;
    await send({ port: httpsPort, path, headers: { 'user-agent': 'search-probe' } });
    await send({
      port: httpsPort,
      path: `/api/admin/quote-requests?email=${encodeURIComponent(searched)}&format=csv`,
      headers: { 'user-agent': 'csv-probe' },
    });
    const search = await waitForLogLine(
      (entry) => entry.request?.headers?.['User-Agent']?.[0] === 'search-probe',
    );
    const csv = await waitForLogLine(
      (entry) => entry.request?.headers?.['User-Agent']?.[0] === 'csv-probe',
    );
    // Caddy writes the query back with its parameters sorted.
    const kept = (uri) => [...new URL(uri, 'https://x').searchParams.keys()].sort();
    expect(kept(search.request.uri), search.request.uri).toEqual(['limit', 'status']);
    expect(kept(csv.request.uri), csv.request.uri).toEqual(['format']);
    const text = readFileSync(accessLog(), 'utf8');
    for (const value of [searched, encodeURIComponent(searched), 'ana.lopez'])
      expect(text, `${value} is in the access log`).not.toContain(value);
  });

  test('deploy/Caddyfile.instances filters its access log as deploy/Caddyfile does', () => {
    const logBlock = (file) => {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      const start = text.indexOf('\tlog {');
      return text.slice(start, text.indexOf('\n\t}\n', start));
    };
    const block = logBlock('deploy/Caddyfile');
    expect(block).toMatch(/request>uri query \{\s+delete email\s+\}/);
    expect(logBlock('deploy/Caddyfile.instances')).toBe(block);
  });

  test('`caddy reload` works twice in a row, as `systemctl reload caddy` runs it', async () => {
    for (let i = 1; i <= 2; i++) {
      // Debian's caddy.service: ExecReload=/usr/bin/caddy reload --config /etc/caddy/Caddyfile --force
      execFileSync(CADDY, ['reload', '--config', CADDYFILE, '--adapter', 'caddyfile', '--force'], {
        env: caddyEnv,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect((await send({ port: httpsPort, path: '/healthz' })).status, `after reload ${i}`).toBe(
        200,
      );
    }
  });

  test('the access log rolls, and the rolled files keep its mode', async () => {
    // About 8 KB of log per request (the header is logged), so 1 MiB rolls within 200 requests.
    const padding = 'p'.repeat(8000);
    const rolled = () => readdirSync(logDir()).filter((name) => name !== 'access.log');
    for (let i = 0; i < 200 && rolled().length === 0; i++) {
      await send({ port: httpsPort, path: '/healthz', headers: { 'x-padding': padding } });
    }
    expect(rolled(), 'no rolled file').not.toEqual([]);
    for (const name of readdirSync(logDir())) {
      expect(statSync(join(logDir(), name)).mode & 0o777, name).toBe(0o640);
    }
    expect(statSync(accessLog()).size).toBeLessThan(ROLL_BYTES);
  });

  /** The first access-log entry `match` accepts, waiting for Caddy to write it (bounded). */
  async function waitForLogLine(match) {
    const logged = () =>
      readFileSync(accessLog(), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .find(match);
    let entry;
    await expect
      .poll(() => (entry = logged()), {
        timeout: 5_000,
        intervals: [50],
        message: 'the request logged',
      })
      .toBeTruthy();
    return entry;
  }
});

test('the systemd unit passes systemd-analyze verify', () => {
  const analyze = systemdAnalyze(test);
  if (!analyze) return;
  // verify checks that ExecStart exists: point it at this checkout's release binary.
  const dir = mkdtempSync(join(tmpdir(), 'unit-'));
  try {
    const unit = join(dir, 'quotes.service');
    copyFileSync(join(repoRoot, 'deploy/quotes.service'), unit);
    const text = readFileSync(unit, 'utf8');
    expect(text).toMatch(/^ExecStart=\/opt\/quotes\/backend serve$/m);
    writeFileSync(
      unit,
      text.replace(
        /^ExecStart=\/opt\/quotes\/backend/m,
        `ExecStart=${join(repoRoot, 'target/release/backend')}`,
      ),
    );
    execFileSync(analyze, ['verify', unit], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const setting of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'StateDirectory=',
      'LimitNOFILE=',
      'Restart=on-failure',
      'EnvironmentFile=',
      'DynamicUser=yes',
    ]) {
      expect(text, setting).toContain(setting);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the commands in docs/operating.md "Put it online" match deploy/', () => {
  const docs = readFileSync(join(repoRoot, 'docs/operating.md'), 'utf8');
  const start = docs.indexOf('## Put it online');
  const section = docs.slice(start, docs.indexOf('\n## ', start + 1));
  const unit = readFileSync(join(repoRoot, 'deploy/quotes.service'), 'utf8');
  const binary = unit.match(/^ExecStart=(\S+) serve$/m)[1];
  const unitEnv = Object.fromEntries(
    unit
      .match(/^Environment=(.*)$/m)[1]
      .split(' ')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );

  // What rsync copies lands where the unit looks for it.
  const rsyncs = [...section.matchAll(/^rsync -a (.+) root@quotes\.example\.com:(\S+)$/gm)];
  expect(rsyncs.length, 'an install and an upgrade rsync').toBeGreaterThanOrEqual(2);
  for (const [, sources, destination] of rsyncs) {
    const copied = sources.split(' ').map((source) => join(destination, source.split('/').pop()));
    expect(copied).toEqual([binary, unitEnv.STATIC_DIR, '/opt/quotes/deploy']);
  }
  expect(section, 'rsync on the server too').toMatch(/apt-get install -y caddy rsync/);
  expect(section).toMatch(/glibc 2\.34 or newer/);

  // The export reads the service's database.
  const urls = [...section.matchAll(/DATABASE_URL=(\S+)/g)].map((match) => match[1]);
  expect(urls.length, 'the systemd-run and the root command').toBeGreaterThanOrEqual(2);
  for (const url of urls) expect(url).toBe(unitEnv.DATABASE_URL);
  expect(section).toMatch(/-p StateDirectory=quotes /);

  // The drop-in goes where systemd reads caddy.service's drop-ins.
  expect(section).toMatch(
    /deploy\/caddy\.service\.d\/quotes\.conf \/etc\/systemd\/system\/caddy\.service\.d\/quotes\.conf/,
  );

  // The sed line gives the Caddyfile the domain, and no other name is left.
  const [, expression] = section.match(
    /^sed '(s\/[^']+)' \/opt\/quotes\/deploy\/Caddyfile > \/etc\/caddy\/Caddyfile$/m,
  );
  test.skip(
    !haveCaddy,
    `${CADDY} is missing (scripts/setup.sh --test installs it): the sed line's result is not adapted`,
  );
  const edited = execFileSync(
    'sed',
    [expression.replace('YOUR.DOMAIN', 'shop.example.org'), CADDYFILE],
    { encoding: 'utf8' },
  );
  const dir = mkdtempSync(join(tmpdir(), 'caddyfile-'));
  try {
    writeFileSync(join(dir, 'Caddyfile'), edited);
    const json = execFileSync(CADDY, ['adapt', '--config', join(dir, 'Caddyfile')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const config = JSON.parse(json);
    const routes = config.apps.http.servers.srv0.routes;
    expect(
      routes.flatMap((route) => route.match?.flatMap((match) => match.host ?? []) ?? []),
    ).toEqual(['shop.example.org']);
    expect(json.includes('example.com'), json).toBe(false);
    // The bounded history the docs promise: 50 MiB files, at most 10, none older than 90 days.
    const writer = Object.values(config.logging.logs).find(
      (log) => log.writer?.output === 'file',
    ).writer;
    expect([writer.roll_size_mb, writer.roll_keep, writer.roll_keep_days]).toEqual([50, 10, 90]);
    expect(section).toMatch(/rolled at 50 MiB with at most 10 files\s+of at most 90 days kept/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
