// Hostile clients against the release server. Slow and silent ones are timed out, connections
// stay below the open-file limit, and a new visitor is always answered; request targets that
// are not a path (CONNECT, OPTIONS *) get a JSON 400, never a panic; symbolic links out of the
// static directory are never served. Loopback only, bounded in time (each case ends within
// about 15 s) and count (1,100 connections).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';

/** The server's head timeout (backend/src/http/connections.rs HEAD_TIMEOUT). */
const HEAD_TIMEOUT_MS = 10_000;
const SILENT = 1_100;

function open(port) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with {ms, data} once the server closes the socket (or rejects after `limitMs`). */
function closedBy(socket, limitMs) {
  const start = Date.now();
  let data = '';
  socket.on('data', (chunk) => (data += chunk));
  socket.on('error', () => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${limitMs} ms`)), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ ms: Date.now() - start, data });
    });
  });
}

/** Writes `request` on a new connection; resolves with what came back once the server closes it. */
async function exchange(port, request) {
  const socket = await open(port);
  const closed = closedBy(socket, 5_000);
  socket.write(request);
  return (await closed).data;
}

/** Waits until `count` returns at least `n` (the log arrives through a pipe), at most 5 s. */
async function eventually(count, n) {
  const deadline = Date.now() + 5_000;
  while (count() < n && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return count();
}

async function healthzMs(url) {
  const start = Date.now();
  const response = await fetch(`${url}/healthz`, {
    signal: AbortSignal.timeout(HEAD_TIMEOUT_MS + 5_000),
  });
  assert.equal(response.status, 200);
  return Date.now() - start;
}

async function withSilentCrowd(server, check) {
  const { port } = new URL(server.url);
  const sockets = [];
  try {
    for (let i = 0; i < SILENT; i++) {
      const socket = await open(port);
      socket.on('error', () => {});
      sockets.push(socket);
    }
    await check();
  } finally {
    sockets.forEach((socket) => socket.destroy());
  }
}

test('with the open-file limit at 1,024, 1,100 silent connections do not stop a visitor being answered', async () => {
  const server = await startServer({ launcher: ['prlimit', '--nofile=1024:1024', '--'] });
  try {
    await withSilentCrowd(server, async () => {
      const ms = await healthzMs(server.url);
      assert.ok(ms <= HEAD_TIMEOUT_MS + 1_000, `/healthz took ${ms} ms`);
    });
    assert.match(server.log(), /"max_connections":896/, 'the cap sits below the limit');
    assert.match(server.log(), /connection cap reached/);
  } finally {
    await server.stop();
  }
});

test('with the usual limit, 1,100 silent connections do not delay a visitor at all', async () => {
  const server = await startServer();
  try {
    await withSilentCrowd(server, async () => {
      const ms = await healthzMs(server.url);
      assert.ok(ms < 1_000, `/healthz took ${ms} ms`);
    });
  } finally {
    await server.stop();
  }
});

test('silent, slow-header, stalled-body and idle keep-alive connections are closed', async () => {
  const server = await startServer();
  try {
    const { port } = new URL(server.url);
    const limit = HEAD_TIMEOUT_MS + 3_000;
    const silent = await open(port);
    const slowHead = await open(port);
    slowHead.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const slowBody = await open(port);
    slowBody.write(
      'POST /api/quote-requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"product":',
    );
    const idle = await open(port);
    idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const [s, h, b, i] = await Promise.all(
      [silent, slowHead, slowBody, idle].map((socket) => closedBy(socket, limit)),
    );
    for (const [name, closed] of Object.entries({ silent: s, slowHead: h, slowBody: b, idle: i })) {
      assert.ok(closed.ms >= HEAD_TIMEOUT_MS - 1_000, `${name} closed after ${closed.ms} ms`);
    }
    assert.equal(s.data, '');
    assert.match(b.data, /^HTTP\/1\.1 408 /, 'the stalled body is answered 408');
    assert.match(b.data, /"code":"request_timeout"/);
    assert.match(i.data, /^HTTP\/1\.1 200 /, 'the idle connection had its answer first');
    assert.equal(server.rows().length, 0);
  } finally {
    await server.stop();
  }
});

test('CONNECT and OPTIONS * get 400 with the JSON body, one log line each, and nothing outside the JSON log', async () => {
  const server = await startServer();
  try {
    const { port } = new URL(server.url);
    const targets = [
      'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nConnection: close\r\n\r\n',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nConnection: close\r\n\r\n',
      'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ];
    for (const request of targets) {
      const data = await exchange(port, request);
      assert.match(data, /^HTTP\/1\.1 400 /, `${request.split('\r')[0]} answered:\n${data}`);
      const body = JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4));
      assert.equal(body.code, 'invalid_request_target');
      assert.match(body.message, /path/);
    }
    // The burst: 2,000 of them once wrote 6,000 panic lines in a third of a second.
    const burst = 200;
    await Promise.all(
      Array.from({ length: burst }, () =>
        exchange(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ),
    );
    const refused = () =>
      server
        .log()
        .split('\n')
        .filter((line) => line.includes('"target":"request"') && line.includes('"status":400'))
        .length;
    assert.equal(
      await eventually(refused, targets.length + burst),
      targets.length + burst,
      'one log line per request',
    );
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    const lines = server.log().split('\n').filter(Boolean);
    for (const line of lines)
      assert.doesNotThrow(() => JSON.parse(line), `a line outside the JSON log: ${line}`);
    assert.doesNotMatch(server.log(), /panic/);
  } finally {
    await server.stop();
  }
});

test('symbolic links out of STATIC_DIR are never served, and a link loop does not stop start-up', async () => {
  const site = mkdtempSync(join(tmpdir(), 'quote-site-'));
  const outside = mkdtempSync(join(tmpdir(), 'quote-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'SECRET=1');
  mkdirSync(join(site, 'assets'));
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>Home</title>');
  writeFileSync(join(site, '404.html'), '<!doctype html><title>Not found</title>');
  symlinkSync('/etc/passwd', join(site, 'passwd'));
  symlinkSync(join(outside, 'secret.txt'), join(site, 'assets', 'app-leak.js'));
  symlinkSync(outside, join(site, 'outside'));
  symlinkSync(join(site, 'loop'), join(site, 'loop'));
  const server = await startServer({ staticDir: site });
  try {
    for (const path of ['/passwd', '/assets/app-leak.js', '/outside/secret.txt', '/loop']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      const text = await response.text();
      assert.doesNotMatch(text, /root:|SECRET/, path);
    }
    assert.equal((await fetch(server.url)).status, 200);
    const skipped = server
      .log()
      .split('\n')
      .filter((line) => line.includes('static file skipped'));
    assert.equal(skipped.length, 4, `one warning per link:\n${skipped.join('\n')}`);
  } finally {
    await server.stop();
    rmSync(site, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
