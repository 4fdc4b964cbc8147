// Two release instances on one PostgreSQL behind real Caddy (deploy/Caddyfile.instances), lead
// forwarding on to a webhook receiver on loopback. 20 visitors (127.0.0.2 to .21) post through
// Caddy while one instance is killed with SIGKILL and started again: every 201 is stored with its
// data, every stored lead reaches the receiver, a lead arrives twice only if its delivery was in
// flight at the kill, and the visitors keep being answered while the instance is down.
// Needs TEST_DATABASE_URL (a fresh database is made on its cluster) and caddy; skipped with a
// message otherwise. Bounded: a few seconds of posts, then at most LEAD_CLAIM + 20 s for deliveries.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { haveCaddy, send, startCaddy } from '../support/caddy.mjs';
import { freePort } from '../support/free-port.mjs';
import { formCookie, repoRoot, startServer } from '../../frontend/e2e/support/server.mjs';
import { expect, test } from '../../frontend/e2e/support/test.mjs';

const BASE_URL = process.env.TEST_DATABASE_URL;
/** How long a dead instance's claimed leads wait before another takes them (store/postgres LEAD_CLAIM). */
const LEAD_CLAIM_MS = 60_000;
const VISITORS = 20;
/** How soon Caddy's health check sees a dead instance (Caddyfile.instances: every 1 s), with room. */
const HEALTH_NOTICE_MS = 2_000;
const PRODUCTS = ['medicare', 'individual', 'family', 'medicaid', 'employer'];

/** Why the test with Caddy and PostgreSQL cannot run here, or '' when it can. */
const skipReason = !haveCaddy
  ? 'caddy is missing: run scripts/setup.sh --test'
  : !BASE_URL
    ? 'TEST_DATABASE_URL is not set: this test needs PostgreSQL (scripts/test.sh starts one)'
    : '';

/** A database of its own on TEST_DATABASE_URL's cluster. */
function createDatabase() {
  const name = `e2e_${process.pid}_${Date.now()}`;
  execFileSync('psql', [BASE_URL, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE ${name}`]);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      execFileSync('psql', [
        BASE_URL,
        '-v',
        'ON_ERROR_STOP=1',
        '-qc',
        `DROP DATABASE ${name} WITH (FORCE)`,
      ]),
  };
}

/** The broker's webhook: records every delivery (its idempotency header, body and time) and answers 200. */
async function startReceiver() {
  const deliveries = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      deliveries.push({
        key: req.headers['idempotency-key'],
        lead: JSON.parse(body),
        at: Date.now(),
      });
      res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/leads`,
    deliveries,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * One visitor: posts a new quote after each answer until `running()` is false; a post not
 * answered 201 is sent again with its key. Like a browser, it sends the form token each 201
 * gives for the next quote (a token serves one lead).
 */
async function visit(i, port, firstCookie, running, answers) {
  const from = `127.0.0.${i + 2}`;
  let cookie = firstCookie;
  for (let n = 0; running(); n++) {
    const quote = { product: PRODUCTS[n % PRODUCTS.length], email: `v${i}-${n}@example.com` };
    const key = `visitor-${i}-${n}`;
    for (let attempt = 0; ; attempt++) {
      const start = Date.now();
      let status;
      let body = '';
      let headers = {};
      try {
        ({ status, body, headers } = await send({
          port,
          path: '/api/quote-requests',
          method: 'POST',
          from,
          body: JSON.stringify(quote),
          headers: { 'content-type': 'application/json', 'idempotency-key': key, cookie },
        }));
      } catch (error) {
        status = `error ${error.code ?? error.message}`;
      }
      answers.push({
        visitor: i,
        key,
        quote,
        attempt,
        start,
        end: Date.now(),
        status,
        id: status === 201 ? JSON.parse(body).id : undefined,
      });
      if (status === 201) {
        const token = headers['set-cookie']?.find((c) => c.startsWith('form_token='));
        cookie = token ? token.split(';')[0] : cookie;
        break;
      }
      expect(attempt, `visitor ${i} could not post ${key}: ${status} ${body}`).toBeLessThan(20);
      await sleep(200);
    }
  }
}

/** Once every visitor has been answered 201 for a post sent after `since`. */
async function everyVisitorAnswered(answers, since, when) {
  const answered = () =>
    new Set(answers.filter((a) => a.status === 201 && a.start > since).map((a) => a.visitor)).size;
  await expect
    .poll(answered, {
      timeout: 30_000,
      intervals: [100],
      message: `every visitor answered ${when}`,
    })
    .toBe(VISITORS);
}

test('two instances behind Caddy: one is killed and restarted while 20 visitors post; nothing is lost', async () => {
  test.skip(Boolean(skipReason), skipReason);
  // A few seconds of posts and up to LEAD_CLAIM + 20 s of deliveries, after the start-ups.
  test.setTimeout(LEAD_CLAIM_MS + 120_000);
  const database = createDatabase();
  const receiver = await startReceiver();
  const ports = [await freePort(), await freePort()];
  const instance = (port) =>
    startServer({
      databaseUrl: database.url,
      env: { PORT: String(port), LEAD_WEBHOOK_URL: receiver.url },
    });
  const instances = [await instance(ports[0]), await instance(ports[1])];
  let caddy;
  try {
    caddy = await startCaddy('Caddyfile.instances', {
      BACKEND_ADDRESSES: ports.map((p) => `127.0.0.1:${p}`).join(' '),
    });
    const answers = [];
    let posting = true;
    // Each visitor's page from one instance; its token counts on both (the key is the
    // database's).
    const cookies = await Promise.all(
      Array.from({ length: VISITORS }, () => formCookie(instances[1].url)),
    );
    const visitors = cookies.map((cookie, i) =>
      visit(i, caddy.httpsPort, cookie, () => posting, answers),
    );

    // Every visitor answered, and both instances serving posts, before the kill.
    await everyVisitorAnswered(answers, 0, 'before the kill');
    await expect
      .poll(() => instances.every((server) => /quote-requests/.test(server.log())), {
        message: 'both instances served posts',
      })
      .toBe(true);
    const killedAt = Date.now();
    const killed = instances[0];
    await killed.kill('SIGKILL');
    const deadAt = Date.now();
    // ... and again for a post sent once Caddy's health check has surely seen the instance gone.
    await everyVisitorAnswered(answers, deadAt + HEALTH_NOTICE_MS, 'while one instance is down');
    const restartedAt = Date.now();
    instances[0] = await instance(ports[0]);
    instances.push(killed);
    // Back in Caddy's rotation once it has served a post again.
    await expect
      .poll(() => /quote-requests/.test(instances[0].log()), {
        timeout: 15_000,
        intervals: [100],
        message: 'the restarted instance served a post',
      })
      .toBe(true);
    await everyVisitorAnswered(answers, restartedAt, 'after the restart');
    posting = false;
    await Promise.all(visitors);

    const ok = answers.filter((a) => a.status === 201);
    const failed = answers.filter((a) => a.status !== 201);
    const down = ok.filter((a) => a.start > killedAt && a.end <= restartedAt);
    console.log(
      `posts: ${answers.length} sent, ${ok.length} answered 201 (${down.length} while an instance was down), ` +
        `${failed.length} not: ${[...new Set(failed.map((a) => a.status))].join(', ') || 'none'}`,
    );
    // Only a post in flight at the kill, or sent to the dead instance before Caddy's health
    // check took it out, may go unanswered; the visitor's retry with its key settles it.
    for (const a of failed) {
      expect(
        a.end >= killedAt && a.start <= deadAt + HEALTH_NOTICE_MS,
        `a post sent at +${a.start - killedAt} ms (the process gone at +${deadAt - killedAt}) got ${a.status}`,
      ).toBe(true);
    }
    const visitorsServedWhileDown = new Set(down.map((a) => a.visitor));
    expect(
      visitorsServedWhileDown.size,
      'every visitor was answered while one instance was down',
    ).toBe(VISITORS);

    // Every 201 stored with its data, and nothing stored that no 201 answered.
    const rows = instances[0].rows();
    const stored = new Map(rows.map((row) => [row.id, row]));
    const keys = new Map();
    for (const a of ok) {
      const row = stored.get(a.id);
      expect(row, `${a.key} answered 201 with ${a.id} but not stored`).toBeTruthy();
      expect([row.product, row.email]).toEqual([a.quote.product, a.quote.email]);
      expect(keys.get(a.key) ?? a.id, `${a.key} answered with two ids`).toBe(a.id);
      keys.set(a.key, a.id);
    }
    expect(rows.length, 'one row per posted quote').toBe(keys.size);
    console.log(`stored: ${rows.length} quotes`);

    // Every stored lead reaches the receiver; the dead instance's claimed leads are taken over once their claim runs out.
    const delivered = () => new Set(receiver.deliveries.map((d) => d.key));
    await expect
      .poll(() => rows.every((row) => delivered().has(row.id)), {
        timeout: LEAD_CLAIM_MS + 20_000,
        intervals: [100],
        message: 'every stored lead delivered',
      })
      .toBe(true);
    for (const { key, lead } of receiver.deliveries) {
      const row = stored.get(key);
      expect(row, `delivered ${key}, which is not stored`).toBeTruthy();
      expect([lead.id, lead.product, lead.email]).toEqual([row.id, row.product, row.email]);
    }
    const times = new Map();
    for (const { key, at } of receiver.deliveries) times.set(key, [...(times.get(key) ?? []), at]);
    const twice = [...times].filter(([, at]) => at.length > 1);
    console.log(
      `delivered: ${delivered().size} leads in ${receiver.deliveries.length} deliveries, ${twice.length} delivered twice (in flight at the kill)`,
    );
    for (const [key, at] of twice) {
      expect(
        Math.min(...at),
        `${key} delivered twice, first at +${Math.min(...at) - killedAt} ms after the kill`,
      ).toBeLessThanOrEqual(killedAt + 1_000);
    }
  } finally {
    await caddy?.stop();
    for (const server of instances) await server.stop();
    await receiver.stop();
    database.drop();
  }
});

test('the commands in docs/operating.md "Several instances" match deploy/', () => {
  const docs = readFileSync(join(repoRoot, 'docs/operating.md'), 'utf8');
  const start = docs.indexOf('## Several instances');
  const section = docs.slice(start, docs.indexOf('\n## ', start + 1));
  const unit = readFileSync(join(repoRoot, 'deploy/quotes.service'), 'utf8');
  // Each of the sed expressions making the second unit changes a line the unit has.
  for (const [, , anchored, from] of section.matchAll(/-e 's([/#])(\^?)(.+?)\$?\1/g)) {
    const line = new RegExp(`${anchored ? '^' : ''}${from}${anchored ? '$' : ''}`, 'm');
    expect(unit, `the unit has no ${from}`).toMatch(line);
  }
  expect(section).toMatch(/quotes-2\.service/);
  const [, domain] = section.match(
    /^sed 's\/([^/]+)\/YOUR\.DOMAIN\/' \/opt\/quotes\/deploy\/Caddyfile\.instances/m,
  );
  const caddyfile = readFileSync(join(repoRoot, 'deploy/Caddyfile.instances'), 'utf8');
  expect(caddyfile, `the Caddyfile has no ${domain}`).toContain(domain.replaceAll('\\', ''));
  expect(caddyfile).toMatch(/BACKEND_ADDRESSES/);
  expect(section).toMatch(/BACKEND_ADDRESSES/);
});
