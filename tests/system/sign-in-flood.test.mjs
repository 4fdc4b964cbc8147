// The inbox's sign-in under a guessing flood, on the release backend with its defaults (the
// failure limits, TRUSTED_PROXIES trusting loopback, so X-Forwarded-For names each guesser):
// 200 /64s of one /48 guessing 6 times each make no more than the /48's 20 password checks,
// and the broker signing in from a clean address meanwhile is answered within 3 s; a flood from
// as many networks as it likes meets a bounded server-wide line of checks, beyond which it is
// answered 503 sign_in_busy at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { ADMIN_PASSWORD, ADMIN_PASSWORD_HASH } from '../../frontend/e2e/support/inbox.mjs';
import { startServer } from '../../frontend/e2e/support/server.mjs';

/** Requests in flight at once from the flood. */
const FLOOD_CONCURRENCY = 64;
/** The broker's sign-in must be answered within this long during the flood. */
const BROKER_WITHIN_MS = 3_000;
/** A sign-in beyond the server's line of checks is refused within this long. */
const BUSY_WITHIN_MS = 1_000;

/** One sign-in as the inbox page sends it, from `client`; resolves {status, code, ms}. */
function signIn(url, client, password) {
  const body = JSON.stringify({ password });
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/api/admin/session',
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
          'x-forwarded-for': client,
        },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          const code = res.statusCode === 200 ? 'ok' : JSON.parse(text).code;
          resolve({ status: res.statusCode, code, ms: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('no answer')));
    req.end(body);
  });
}

/** Sends every guess in `clients` (one per entry), FLOOD_CONCURRENCY at a time; their answers. */
async function flood(url, clients) {
  const answers = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (next < clients.length) {
        const client = clients[next++];
        answers.push(await signIn(url, client, 'a wrong guess'));
      }
    }),
  );
  return answers;
}

const count = (answers, code) => answers.filter((a) => a.code === code).length;

test('200 /64s of one /48 get 20 password checks, and the broker is answered within 3 s', async () => {
  const server = await startServer({ env: { ADMIN_PASSWORD_HASH } });
  try {
    const guessers = Array.from({ length: 200 }, (_, n) => `2001:db8:48:${n.toString(16)}::1`);
    const guesses = guessers.flatMap((client) => Array(6).fill(client));
    const flooding = flood(server.url, guesses);
    // Once the flood is under way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const broker = await signIn(server.url, '203.0.113.10', ADMIN_PASSWORD);
    const answers = await flooding;
    assert.equal(broker.status, 200, JSON.stringify(broker));
    assert.ok(broker.ms < BROKER_WITHIN_MS, `the broker waited ${broker.ms.toFixed(0)} ms`);
    assert.equal(answers.length, 1200);
    assert.ok(count(answers, 'wrong_password') <= 20, `${count(answers, 'wrong_password')} checks`);
    assert.equal(
      count(answers, 'wrong_password') + count(answers, 'too_many_failed_attempts'),
      1200,
    );
  } finally {
    await server.stop();
  }
});

test('guesses from 400 networks: the line of checks is bounded, beyond it 503 at once', async () => {
  const server = await startServer({ env: { ADMIN_PASSWORD_HASH } });
  try {
    const guesses = Array.from({ length: 400 }, (_, n) => `2001:db8:${(n + 1).toString(16)}::1`);
    const answers = await flood(server.url, guesses);
    // A refusal beyond the line waits for no check: it is answered at once.
    const busy = answers.filter((a) => a.code === 'sign_in_busy');
    const slowestBusy = Math.max(...busy.map((a) => a.ms));
    assert.ok(slowestBusy < BUSY_WITHIN_MS, `a 503 took ${slowestBusy.toFixed(0)} ms`);
    assert.equal(
      count(answers, 'wrong_password') + count(answers, 'sign_in_busy'),
      400,
      JSON.stringify(answers.filter((a) => !['wrong_password', 'sign_in_busy'].includes(a.code))),
    );
    assert.ok(count(answers, 'sign_in_busy') > 0, 'the queue of checks is bounded');
    // The broker, after the flood, signs in as ever.
    assert.equal((await signIn(server.url, '203.0.113.10', ADMIN_PASSWORD)).status, 200);
  } finally {
    await server.stop();
  }
});
