// Starts the real release backend on port 0 over a fresh SQLite database, serving the real
// built front end, and reads rows back through the backend's own export command.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repoRoot = new URL('../../../', import.meta.url).pathname;
const binary = join(repoRoot, 'target/release/backend');
const staticDir = join(repoRoot, 'frontend/dist');

/** `databaseUrl` may be given to reuse a database (for example read-only). */
export async function startServer({ dir = mkdtempSync(join(tmpdir(), 'quote-e2e-')), databaseUrl, env = {} } = {}) {
  const database = databaseUrl ?? `sqlite://${join(dir, 'quotes.db')}`;
  const childEnv = { ...process.env, PORT: '0', BIND: '127.0.0.1', DATABASE_URL: database, STATIC_DIR: staticDir, ...env };
  const child = spawn(binary, [], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
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
    dir,
    databaseUrl: database,
    log: () => log,
    /** Rows as the backend's `export --format jsonl` prints them. */
    rows() {
      const out = execFileSync(binary, ['export', '--format', 'jsonl'], { env: { ...childEnv }, encoding: 'utf8' });
      return out.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    },
    async stop({ keepDir = false } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
