// COUNT quote posts as scripts/bench.sh's wrk script sends them, over 4 kept-alive connections,
// for counts that must be exact (scripts/bench-instructions.sh). Each connection is a person's
// browser: it loads the page once for its form token, and each post sends the fresh token the
// answer to the one before set (a token serves one lead; a spent one would be held as spam).
// Exits non-zero if any post is not answered 201 with a fresh token.
//
//   node scripts/bench/post-quotes.mjs URL COUNT
import http from 'node:http';

const [url, count] = [process.argv[2], Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const body = '{"product":"family","email":"bench.user@example.com"}';

/** The request's answer, read to its end, and the form token it set. */
function send(path, options) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, url), { agent, ...options }, (response) => {
      response.resume();
      response.on('end', () => {
        const cookie = (response.headers['set-cookie'] ?? []).find((c) => c.startsWith('form_token='));
        resolve({ status: response.statusCode, token: cookie?.split(';')[0] });
      });
    });
    request.on('error', reject);
    request.end(options.method === 'POST' ? body : undefined);
  });
}

async function post(token) {
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'User-Agent': 'bench',
    Cookie: token,
  };
  const answer = await send('/api/quote-requests', { method: 'POST', headers });
  if (answer.status !== 201 || !answer.token)
    throw new Error(`answered ${answer.status}${answer.token ? '' : ' without a fresh form token'}`);
  return answer.token;
}

let left = count;
async function connection() {
  let { token } = await send('/', { method: 'GET' });
  if (!token) throw new Error('the page set no form token');
  while (left > 0) {
    left -= 1;
    token = await post(token);
  }
}
await Promise.all([connection(), connection(), connection(), connection()]);
agent.destroy();
