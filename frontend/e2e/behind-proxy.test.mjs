// The site as deployed: real Caddy (Debian's package) running deploy/Caddyfile with its own CA
// on loopback ports, in front of the release backend with its default settings (rate limit and
// trusted proxies included). Skipped with a message when caddy is not installed
// (`scripts/setup.sh --test` installs it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, openPage } from './support/browser.mjs';
import { CADDY, SITE, freePort, haveCaddy, send } from './support/caddy.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { repoRoot, startServer } from './support/server.mjs';

const QUOTE = JSON.stringify({ product: 'family', email: 'ana@example.com' });

const postQuote = (port, from, headers = {}) =>
  send({ port, path: '/api/quote-requests', method: 'POST', from, body: QUOTE, headers: { 'content-type': 'application/json', ...headers } });

describe('behind Caddy, as deployed', { skip: haveCaddy ? false : `${CADDY} is missing: run scripts/setup.sh --test` }, () => {
  let server;
  let caddy;
  let dir;
  let httpPort;
  let httpsPort;
  let caddyLog = '';

  before(async () => {
    // The backend's defaults: the rate limit (10 a minute, burst 5) and TRUSTED_PROXIES (loopback).
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: undefined } });
    dir = mkdtempSync(join(tmpdir(), 'caddy-e2e-'));
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    caddy = spawn(CADDY, ['run', '--config', join(repoRoot, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        SITE_DOMAIN: SITE,
        CADDY_HTTP_PORT: String(httpPort),
        CADDY_HTTPS_PORT: String(httpsPort),
        CADDY_ISSUER: 'internal',
        CADDY_BIND: '127.0.0.1',
        CADDY_ACCESS_LOG: join(dir, 'access.log'),
        BACKEND_ADDRESS: new URL(server.url).host,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout.on('data', (chunk) => (caddyLog += chunk));
    caddy.stderr.on('data', (chunk) => (caddyLog += chunk));
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        if ((await send({ port: httpsPort, path: '/healthz' })).status === 200) break;
      } catch {
        // Not listening yet, or still issuing its certificate.
      }
      if (caddy.exitCode !== null || Date.now() > deadline) throw new Error(`caddy did not come up:\n${caddyLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  after(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy.once('exit', resolve));
      caddy.kill('SIGTERM');
      await exited;
    }
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the page loads over HTTPS in Chromium, with HSTS', async () => {
    const browser = await launchBrowser();
    try {
      const { page, context, errors } = await openPage(browser, { ignoreHTTPSErrors: true });
      const response = await gotoHydrated(page, `https://${SITE}:${httpsPort}/`);
      assert.equal(response.status(), 200);
      assert.match(response.headers()['strict-transport-security'], /^max-age=31536000/);
      assert.match(response.headers()['content-security-policy'], /default-src 'self'/, 'the backend answered');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  });

  test('HTTP is redirected to HTTPS', async () => {
    const response = await send({ port: httpPort, path: '/quote?x=1', tls: false });
    assert.ok([301, 308].includes(response.status), `status ${response.status}`);
    // Caddy 2.6 names no port in the redirect (443 in production, where it is the default).
    const location = new URL(response.headers.location);
    assert.deepEqual([location.protocol, location.hostname, location.pathname + location.search], ['https:', SITE, '/quote?x=1']);
    assert.equal(response.headers['strict-transport-security'], undefined, 'HSTS only over HTTPS');
  });

  test('20 visitors from 20 addresses each get their 201', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postQuote(httpsPort, `127.0.0.${i + 2}`)),
    );
    assert.deepEqual(answers.map((a) => a.status), Array(20).fill(201), answers.map((a) => a.body).join('\n'));
  });

  test('a visitor cannot move into another bucket with its own X-Forwarded-For', async () => {
    const [spoofer, victim] = ['127.0.0.40', '127.0.0.41'];
    for (let i = 0; i < 5; i++) {
      assert.equal((await postQuote(httpsPort, spoofer, { 'x-forwarded-for': victim })).status, 201);
    }
    const sixth = await postQuote(httpsPort, spoofer, { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=203.0.113.9' });
    assert.equal(sixth.status, 429, 'still counted as itself');
    assert.equal(JSON.parse(sixth.body).code, 'rate_limited');
    assert.equal((await postQuote(httpsPort, victim)).status, 201, "the victim's bucket was not spent");
  });

  test('Caddy writes its access log', () => {
    const lines = readFileSync(join(dir, 'access.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(lines.some((line) => line.request?.uri === '/api/quote-requests' && line.status === 201));
  });
});

test('the systemd unit passes systemd-analyze verify', (t) => {
  let analyze;
  try {
    analyze = execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim();
  } catch {
    t.skip('systemd-analyze is not available');
    return;
  }
  // verify checks that ExecStart exists: point it at this checkout's release binary.
  const dir = mkdtempSync(join(tmpdir(), 'unit-'));
  try {
    const unit = join(dir, 'quotes.service');
    copyFileSync(join(repoRoot, 'deploy/quotes.service'), unit);
    const text = readFileSync(unit, 'utf8');
    assert.match(text, /^ExecStart=\/opt\/quotes\/backend serve$/m);
    writeFileSync(unit, text.replace(/^ExecStart=\/opt\/quotes\/backend/m, `ExecStart=${join(repoRoot, 'target/release/backend')}`));
    execFileSync(analyze, ['verify', unit], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    for (const setting of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'StateDirectory=', 'LimitNOFILE=', 'Restart=on-failure', 'EnvironmentFile=', 'DynamicUser=yes']) {
      assert.ok(text.includes(setting), setting);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
