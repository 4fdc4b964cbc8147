// COUNT quote posts as scripts/bench.sh's wrk script sends them (a person's, with the page's form
// token in BENCH_FORM_COOKIE), over 4 kept-alive connections, for counts that must be exact
// (scripts/bench-instructions.sh). Exits non-zero if any post is not answered 201.
//
//   node scripts/bench/post-quotes.mjs URL COUNT
import http from 'node:http';

const [url, count] = [process.argv[2], Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const body = '{"product":"family","email":"bench.user@example.com"}';
const headers = {
  'Content-Type': 'application/json',
  'Content-Length': Buffer.byteLength(body),
  'User-Agent': 'bench',
  Cookie: process.env.BENCH_FORM_COOKIE ?? '',
};

function post() {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL('/api/quote-requests', url),
      { method: 'POST', agent, headers },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 201
            ? resolve()
            : reject(new Error(`answered ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

let left = count;
async function connection() {
  while (left > 0) {
    left -= 1;
    await post();
  }
}
await Promise.all([connection(), connection(), connection(), connection()]);
agent.destroy();
