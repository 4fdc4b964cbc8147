// Slow and silent clients against the release server: they are timed out, connections stay
// below the open-file limit, and a new visitor is always answered. Loopback only, bounded in
// time (each case ends within about 15 s) and count (1,100 connections).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
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

async function healthzMs(url) {
  const start = Date.now();
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(HEAD_TIMEOUT_MS + 5_000) });
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
    const [s, h, b, i] = await Promise.all([silent, slowHead, slowBody, idle].map((socket) => closedBy(socket, limit)));
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
