// The real release server as a process: killed under load it loses no acknowledged quote, and
// on SIGTERM or Ctrl-C (SIGINT) it stops accepting, finishes what is in flight and exits 0.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { startServer } from '../../frontend/e2e/support/server.mjs';
import { expect, test } from '../../frontend/e2e/support/test.mjs';

const PRODUCTS = ['medicare', 'individual', 'family', 'medicaid', 'employer'];
const CLIENTS = 32;
const ACKS_BEFORE_KILL = 500;
const SHUTDOWN_BOUND_MS = 10_000; // limits.rs SHUTDOWN_GRACE
const EXIT_MARGIN_MS = 2_000;

async function postQuote(url, quote) {
  const response = await fetch(`${url}/api/quote-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'crash-test' },
    body: JSON.stringify(quote),
  });
  return { status: response.status, body: await response.json() };
}

/** Raw HTTP/1.1 so a request can be left half-sent across the signal. The socket is not
 * half-closed after the body: hyper treats that as the client going away. */
function openRequest(url, body) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  const closed = new Promise((resolve) => socket.on('close', () => resolve(answer)));
  const head = `POST /api/quote-requests HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    socket.on('error', reject); // stays attached: a reset after the answer is not a failure
    socket.once('connect', () => {
      const half = Math.floor(body.length / 2);
      socket.write(head + body.slice(0, half), () =>
        resolve({ socket, finish: () => (socket.write(body.slice(half)), closed) }),
      );
    });
  });
}

/**
 * Once the server has read all `request` sent so far: its end of the connection has nothing
 * left in its receive queue (Linux's /proc/net/tcp, `rx_queue` of the server's socket).
 */
async function readByServer({ socket }) {
  const port = (n) => n.toString(16).toUpperCase().padStart(4, '0');
  const [server, client] = [port(socket.remotePort), port(socket.localPort)];
  const unread = () => {
    const line = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find(([, local, remote]) => local?.endsWith(`:${server}`) && remote?.endsWith(`:${client}`));
    return line ? parseInt(line[4].split(':')[1], 16) : 'no connection yet';
  };
  await expect.poll(unread, { intervals: [20], message: 'the server read the request' }).toBe(0);
}

function canConnect(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

test.describe('server process', () => {
  test('SIGKILL under load loses no quote that was answered 201', async () => {
    const server = await startServer();
    const acked = new Map();
    let killed = false;
    let reachedTarget;
    const target = new Promise((resolve) => (reachedTarget = resolve));
    const client = async (c) => {
      for (let i = 0; !killed; i++) {
        const quote = { product: PRODUCTS[i % PRODUCTS.length], email: `c${c}.n${i}@example.com` };
        try {
          const { status, body } = await postQuote(server.url, quote);
          expect(status).toBe(201);
          acked.set(body.id, quote);
          if (acked.size >= ACKS_BEFORE_KILL) reachedTarget();
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    await target;
    killed = true;
    const exit = await server.kill('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    await Promise.all(clients);

    const restarted = await startServer({ dir: server.dir, databaseUrl: server.databaseUrl });
    try {
      expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
      const stored = new Map(restarted.rows().map((row) => [row.id, row]));
      expect(
        stored.size,
        `${stored.size} rows for ${acked.size} acknowledged`,
      ).toBeGreaterThanOrEqual(acked.size);
      for (const [id, quote] of acked) {
        const row = stored.get(id);
        expect(row, `acknowledged quote ${id} is stored`).toBeTruthy();
        expect({
          product: row.product,
          email: row.email,
          source: row.source,
          user_agent: row.user_agent,
        }).toEqual({ ...quote, source: 'web', user_agent: 'crash-test' });
      }
    } finally {
      await restarted.stop();
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT']) {
    test(`${signal} finishes the request in flight, refuses new ones and exits 0`, async () => {
      const server = await startServer();
      const inFlight = await openRequest(
        server.url,
        JSON.stringify({ product: 'medicaid', email: 'late@example.com' }),
      );
      // The request is in the server's hands when the signal comes.
      await readByServer(inFlight);
      const started = Date.now();
      const exit = server.kill(signal);
      // Stopped accepting: the listener goes (the half-sent request keeps the process up).
      await expect
        .poll(() => canConnect(server.url), {
          timeout: SHUTDOWN_BOUND_MS,
          intervals: [20],
          message: 'the listener closed',
        })
        .toBe(false);
      const answer = await inFlight.finish();
      expect(answer).toMatch(/^HTTP\/1\.1 201 /);
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_BOUND_MS + EXIT_MARGIN_MS);
      const rows = server.rows();
      expect(rows.map((r) => [r.product, r.email])).toEqual([['medicaid', 'late@example.com']]);
      await server.stop();
    });
  }

  test('a request that never finishes cannot hold the shutdown past its bound', async () => {
    const server = await startServer();
    const stalled = await openRequest(
      server.url,
      JSON.stringify({ product: 'family', email: 'stalled@example.com' }),
    );
    await readByServer(stalled);
    const started = Date.now();
    expect(await server.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    const took = Date.now() - started;
    expect(took, `exited after ${took} ms`).toBeGreaterThanOrEqual(
      SHUTDOWN_BOUND_MS - EXIT_MARGIN_MS,
    );
    expect(took, `exited after ${took} ms`).toBeLessThan(SHUTDOWN_BOUND_MS + EXIT_MARGIN_MS);
    // The status line only: a request id may hold the digits 201 too.
    expect(await stalled.finish()).not.toMatch(/^HTTP\/1\.1 201/);
    expect(server.rows()).toEqual([]);
    await server.stop();
  });
});
