/**
 * The daily backup's systemd units (deploy/quotes-backup.service and .timer): systemd accepts
 * them, they back up the database the site's unit serves, and docs/operating.md installs them.
 * The backup itself is tested in backend/tests/api/backup_and_import.rs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../frontend/e2e/support/server.mjs';
import { systemdAnalyze } from '../support/systemd.mjs';

const deploy = join(repoRoot, 'deploy');
const read = (name) => readFileSync(join(deploy, name), 'utf8');

test('the backup service and timer pass systemd-analyze verify', (t) => {
  const analyze = systemdAnalyze(t);
  if (!analyze) return;
  execFileSync(analyze, ['verify', 'quotes-backup.service', 'quotes-backup.timer'], {
    cwd: deploy,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = read('quotes-backup.timer');
  assert.match(timer, /^OnCalendar=\*-\*-\* /m, 'daily');
  assert.match(timer, /^Persistent=true$/m, 'a missed day made up at boot');
});

test('the backup runs as the site, on its database, and the docs install it', () => {
  const site = read('quotes.service');
  const backup = read('quotes-backup.service');
  const setting = (unit, name) => unit.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1];
  assert.equal(setting(backup, 'User'), setting(site, 'User'));
  const siteUrl = setting(site, 'Environment').match(/DATABASE_URL=(\S+)/)[1];
  assert.equal(setting(backup, 'Environment'), `DATABASE_URL=${siteUrl}`);
  assert.equal(setting(backup, 'EnvironmentFile'), setting(site, 'EnvironmentFile'));
  const binary = site.match(/^ExecStart=(\S+) serve$/m)[1];
  assert.ok(
    setting(backup, 'ExecStart').includes(`exec ${binary} backup /var/lib/quotes/backups/`),
  );
  assert.match(setting(backup, 'StateDirectory'), /^quotes quotes\/backups$/);

  const docs = readFileSync(join(repoRoot, 'docs/operating.md'), 'utf8');
  assert.match(
    docs,
    /cp \/opt\/quotes\/deploy\/quotes-backup\.service \/opt\/quotes\/deploy\/quotes-backup\.timer \/etc\/systemd\/system\//,
  );
  assert.match(docs, /systemctl enable --now quotes-backup\.timer/);
});
