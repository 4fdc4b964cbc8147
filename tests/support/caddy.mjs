// Real Caddy (Debian's package) running one of deploy/'s Caddyfiles on loopback ports with its own
// CA, and requests to it from a chosen loopback source address.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../frontend/e2e/support/server.mjs';
import { expect } from '../../frontend/e2e/support/test.mjs';
import { freePort } from './free-port.mjs';

export const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
export const haveCaddy = existsSync(CADDY);
export const SITE = 'localhost';

/** One request from `from` (a loopback source address) through Caddy; resolves {status, headers, body}. */
export function send({
  port,
  path = '/',
  method = 'GET',
  from = '127.0.0.1',
  headers = {},
  body,
  tls = true,
  timeout = 10_000,
}) {
  const request = tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        servername: SITE,
        // Caddy's own CA signed the certificate; trusting it is not what these tests are about.
        rejectUnauthorized: false,
        agent: false,
        headers: { host: `${SITE}:${port}`, ...headers },
        timeout,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`no answer from ${path}`)));
    req.end(body);
  });
}

/**
 * What the shipped Caddyfiles read, for a run of their own in `dir` on loopback ports with a
 * certificate of Caddy's internal issuer; the access log in `dir` unless `CADDY_ACCESS_LOG` says
 * otherwise.
 */
export function caddyEnvironment(dir, httpPort, httpsPort) {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    SITE_DOMAIN: SITE,
    CADDY_HTTP_PORT: String(httpPort),
    CADDY_HTTPS_PORT: String(httpsPort),
    CADDY_ISSUER: 'internal',
    CADDY_BIND: '127.0.0.1',
    CADDY_ACCESS_LOG: join(dir, 'access.log'),
    // Where a Caddyfile that keeps its admin endpoint puts it: a socket of this run's own.
    CADDY_ADMIN: `unix/${join(dir, 'admin.sock')}`,
  };
}

/**
 * Resolves once `caddy` (its child process) answers `/healthz` on `httpsPort`; rejects with its
 * `log()` when it exits first or takes over 20 s.
 */
export async function answering(caddy, httpsPort, log) {
  try {
    await expect
      .poll(
        async () => {
          if (caddy.exitCode !== null) throw new Error(`it exited with ${caddy.exitCode}`);
          // Refused while it is not listening yet, or still issuing its certificate.
          const response = await send({ port: httpsPort, path: '/healthz' }).catch(() => ({}));
          return response.status;
        },
        { timeout: 20_000, intervals: [100], message: '/healthz through it' },
      )
      .toBe(200);
  } catch (error) {
    throw new Error(`caddy did not come up (${error.message}):\n${log()}`);
  }
}

/**
 * Runs `deploy/<caddyfile>` with `env` added (for example BACKEND_ADDRESSES); resolves once
 * `/healthz` answers 200 through it.
 */
export async function startCaddy(caddyfile, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'caddy-e2e-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const caddy = spawn(
    CADDY,
    ['run', '--config', join(repoRoot, 'deploy', caddyfile), '--adapter', 'caddyfile'],
    {
      env: { ...caddyEnvironment(dir, httpPort, httpsPort), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  caddy.stdout.on('data', (chunk) => (log += chunk));
  caddy.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => caddy.once('exit', resolve));
  const stop = async () => {
    if (caddy.exitCode === null && caddy.signalCode === null) caddy.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await answering(caddy, httpsPort, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { dir, httpPort, httpsPort, log: () => log, stop };
}
