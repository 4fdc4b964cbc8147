// Starts the real release backend on port 0 over a fresh SQLite database, serving the real
// built front end, and reads rows back through the backend's own export command.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = new URL('../../../', import.meta.url).pathname;
// Where scripts/build.sh put it: CARGO_TARGET_DIR when set, as cargo does.
const binary = join(resolve(repoRoot, process.env.CARGO_TARGET_DIR || 'target'), 'release/backend');
const builtSite = join(repoRoot, 'frontend/dist');

/**
 * The form token's cookie (`form_token=...`) the site's home page gives a browser, for a post a
 * test makes outside one that must count as a person's (every instance on one database takes it).
 */
export async function formCookie(url) {
  const response = await fetch(new URL('/', url));
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('form_token='));
  return cookie?.split(';')[0] ?? '';
}

/**
 * `databaseUrl` may be given to reuse a database; `launcher` is a
 * command the binary runs under (for example `['prlimit', '--nofile=1024:1024', '--']`);
 * `staticDir` another built site than frontend/dist.
 */
export async function startServer({
  dir = mkdtempSync(join(tmpdir(), 'quote-e2e-')),
  databaseUrl,
  env = {},
  launcher = [],
  staticDir = builtSite,
} = {}) {
  const database = databaseUrl ?? `sqlite://${join(dir, 'quotes.db')}`;
  // The rate limit is off: tests post many quotes from 127.0.0.1 (one test turns it back on).
  // The form's fill time is 0: a test fills the form as soon as the page is there, faster than a
  // person (spam.test.mjs turns it back on).
  const childEnv = {
    ...process.env,
    PORT: '0',
    BIND: '127.0.0.1',
    DATABASE_URL: database,
    STATIC_DIR: staticDir,
    RATE_LIMIT_PER_MINUTE: '0',
    FORM_MIN_FILL_SECONDS: '0',
    ...env,
  };
  const [command, ...args] = [...launcher, binary];
  const child = spawn(command, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 15_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/Listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return {
    url,
    /** The server's process id (`launcher` execs the binary, so it is the server's own). */
    pid: child.pid,
    dir,
    databaseUrl: database,
    log: () => log,
    /** Rows as the backend's `export --format jsonl` prints them. */
    rows() {
      const out = execFileSync(binary, ['export', '--format', 'jsonl'], {
        env: { ...childEnv },
        encoding: 'utf8',
        // Room for a large export (4,000 rows overflow the default 1 MB).
        maxBuffer: 256 * 1024 * 1024,
      });
      return out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
    /** Sends `signal`; resolves with `{code, signal}` once the process is gone (the data stays). */
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async stop({ keepDir = false } = {}) {
      await this.kill('SIGTERM');
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
