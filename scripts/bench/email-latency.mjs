// Posts LEADS valid quotes to URL over CONNECTIONS concurrent keep-alive connections, each after
// loading the page for its own form token as a visitor would, noting when each got its 201, then waits until the SMTP server (scripts/bench-email.sh's, which notes each
// accepted message's Message-ID and acceptance time in ACCEPTED, a TSV file) has every lead's
// message, and prints one machine-readable line: p50, p99 and max from the 201 to the message's
// acceptance.
//
//   node scripts/bench/email-latency.mjs URL ACCEPTED [LEADS] [CONNECTIONS]
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, acceptedFile, leads = '1000', connections = '64'] = process.argv.slice(2);
const total = Number(leads);
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const now = () => performance.timeOrigin + performance.now();

// The form token of one page view, as a person's browser gets it with the page: a token serves
// one lead, so a post with another post's token is held as spam and never e-mailed.
function pageToken() {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        const cookie = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('form_token='));
        cookie ? resolve(cookie.split(';')[0]) : reject(new Error(`the page (HTTP ${res.statusCode}) set no form token`));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function post(i) {
  const cookie = await pageToken();
  const body = JSON.stringify({ product: 'family', email: `bench${i}@example.com` });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/quote-requests`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 201 ? resolve({ id: JSON.parse(text).id, at: now() }) : reject(new Error(`HTTP ${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const created = new Map();
let next = 0;
const started = now();
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (next < total) {
      const { id, at } = await post(next++);
      created.set(id, at);
    }
  }),
);
const postedMs = now() - started;
agent.destroy();

// The SMTP server's notes, read until every lead's message is there (bounded: 120 s, or
// BENCH_EMAIL_WAIT_SECONDS).
const waitSeconds = Number(process.env.BENCH_EMAIL_WAIT_SECONDS ?? 120);
const accepted = new Map();
const deadline = Date.now() + waitSeconds * 1000;
while (accepted.size < created.size && Date.now() < deadline) {
  const lines = existsSync(acceptedFile) ? readFileSync(acceptedFile, 'utf8').split('\n') : [];
  for (const line of lines) {
    const [messageId, at] = line.split('\t');
    // The Message-ID is <lead id@sender's domain>.
    const id = (messageId ?? '').replace(/^<|@.*$/g, '');
    if (created.has(id) && !accepted.has(id)) accepted.set(id, Number(at) * 1000);
  }
  if (accepted.size < created.size) await new Promise((resolve) => setTimeout(resolve, 50));
}
if (accepted.size < created.size) {
  console.error(`only ${accepted.size} of ${created.size} messages arrived within ${waitSeconds} s`);
  process.exit(1);
}
const latencies = [...created].map(([id, at]) => accepted.get(id) - at).sort((a, b) => a - b);
const pick = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
console.log(
  `BENCH leads=${total} posted_s=${(postedMs / 1000).toFixed(2)} p50_ms=${pick(0.5).toFixed(0)} p99_ms=${pick(0.99).toFixed(0)} max_ms=${latencies.at(-1).toFixed(0)}`,
);
