// The real SMTP server of the backend's e-mail tests (Debian's python3-aiosmtpd running
// backend/tests/api/common/smtp_server.py) on a free loopback port, keeping every message it
// accepts as JSON in a temporary folder, so a test reads what the backend sent.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../frontend/e2e/support/server.mjs';
import { freePort } from './free-port.mjs';

const script = join(repoRoot, 'backend/tests/api/common/smtp_server.py');

export async function startSmtpServer() {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-e2e-'));
  const port = await freePort();
  const child = spawn('/usr/bin/python3', [script, '--port', String(port), '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SMTP server did not start:\n${log}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) =>
      reject(
        new Error(
          `SMTP server exited with ${code} (scripts/setup.sh --test installs python3-aiosmtpd):\n${log}`,
        ),
      ),
    );
  });
  const messagesDir = join(dir, 'messages');
  return {
    /** The settings that send every lead through this server. */
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      LEAD_EMAIL_TO: 'broker@example.com',
      LEAD_EMAIL_FROM: 'Quotes <quotes@broker.example>',
    },
    /** Every accepted message: {mail_from, rcpt_tos, raw, headers: [[name, value]], text, html}. */
    messages() {
      return readdirSync(messagesDir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => JSON.parse(readFileSync(join(messagesDir, name), 'utf8')));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
