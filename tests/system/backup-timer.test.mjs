/**
 * The daily backup's systemd units (deploy/quotes-backup.service and .timer): systemd accepts
 * them, they back up the database the site's unit serves, and docs/operating.md installs them.
 * The backup itself is tested in backend/tests/api/backup_and_import.rs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../frontend/e2e/support/server.mjs';
import { expect, test } from '../../frontend/e2e/support/test.mjs';
import { systemdAnalyze } from '../support/systemd.mjs';

const deploy = join(repoRoot, 'deploy');
const read = (name) => readFileSync(join(deploy, name), 'utf8');

test('the backup service and timer pass systemd-analyze verify', () => {
  const analyze = systemdAnalyze(test);
  if (!analyze) return;
  execFileSync(analyze, ['verify', 'quotes-backup.service', 'quotes-backup.timer'], {
    cwd: deploy,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = read('quotes-backup.timer');
  expect(timer, 'daily').toMatch(/^OnCalendar=\*-\*-\* /m);
  expect(timer, 'a missed day made up at boot').toMatch(/^Persistent=true$/m);
});

test('the backup runs as the site, on its database, and the docs install it', () => {
  const site = read('quotes.service');
  const backup = read('quotes-backup.service');
  const setting = (unit, name) => unit.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1];
  expect(setting(backup, 'User')).toBe(setting(site, 'User'));
  const siteUrl = setting(site, 'Environment').match(/DATABASE_URL=(\S+)/)[1];
  expect(setting(backup, 'Environment')).toBe(`DATABASE_URL=${siteUrl}`);
  expect(setting(backup, 'EnvironmentFile')).toBe(setting(site, 'EnvironmentFile'));
  const binary = site.match(/^ExecStart=(\S+) serve$/m)[1];
  expect(setting(backup, 'ExecStart')).toContain(`exec ${binary} backup /var/lib/quotes/backups/`);
  expect(setting(backup, 'StateDirectory')).toMatch(/^quotes quotes\/backups$/);

  const docs = readFileSync(join(repoRoot, 'docs/operating.md'), 'utf8');
  expect(docs).toMatch(
    /cp \/opt\/quotes\/deploy\/quotes-backup\.service \/opt\/quotes\/deploy\/quotes-backup\.timer \/etc\/systemd\/system\//,
  );
  expect(docs).toMatch(/systemctl enable --now quotes-backup\.timer/);
});
