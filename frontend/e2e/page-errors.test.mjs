// The page-error check of the `openPage` fixture (support/test.mjs), which every browser test
// relies on: run against a fixture in a child runner, an uncaught page error or a console error
// fails the test that caused it, whether or not it closes its page; an expected error must come.
import { spawnSync } from 'node:child_process';
import { expect, test } from './support/test.mjs';

test('page errors and console errors fail the test that caused them, unless expected', () => {
  const frontend = new URL('..', import.meta.url).pathname;
  const run = spawnSync(
    'npx',
    [
      'playwright',
      'test',
      '--project',
      'page-errors-fixture',
      '--reporter',
      'json',
      '--workers',
      '1',
    ],
    {
      cwd: frontend,
      encoding: 'utf8',
      env: { ...process.env, PAGE_ERRORS_FIXTURE: '1' },
      timeout: 120_000,
    },
  );
  const report = JSON.parse(run.stdout);
  const tests = report.suites.flatMap((file) => file.specs);
  const outcome = Object.fromEntries(tests.map((spec) => [spec.title, spec.ok ? 'ok' : 'not ok']));
  expect(outcome, run.stderr).toEqual({
    'clean page': 'ok',
    'uncaught page error': 'not ok',
    'console error': 'not ok',
    'console error left open': 'not ok',
    'expected error that came': 'ok',
    'expected error that never came': 'not ok',
    'allowed error': 'ok',
  });
  const messages = tests
    .flatMap((spec) => spec.tests.flatMap((t) => t.results.flatMap((r) => r.errors)))
    .map((error) => error.message)
    .join('\n');
  expect(messages).toMatch(/unexpected uncaught page error: Error: boom from the page/);
  expect(messages).toMatch(/unexpected console error: logged by the page/);
  expect(messages).toMatch(/expected an error matching \/logged by the page\/, none came/);
});
