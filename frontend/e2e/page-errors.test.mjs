// The shared page-error check of support/browser.mjs, which every browser test relies on: run
// against a fixture in a child test runner, an uncaught page error or a console error fails the
// test that caused it, whether or not it closes its page; an expected error must come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

test('page errors and console errors fail the test that caused them, unless expected', () => {
  const fixture = new URL('./support/fixtures/page-errors.fixture.mjs', import.meta.url).pathname;
  // A runner of its own: without NODE_TEST_CONTEXT, which would make it defer to this one.
  const { NODE_TEST_CONTEXT: _parentRunner, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', fixture], {
    encoding: 'utf8',
    env,
    timeout: 120_000,
  });
  const outcome = Object.fromEntries(
    [...run.stdout.matchAll(/^(ok|not ok) \d+ - (.+)$/gm)].map(([, result, name]) => [
      name,
      result,
    ]),
  );
  assert.deepEqual(
    outcome,
    {
      'clean page': 'ok',
      'uncaught page error': 'not ok',
      'console error': 'not ok',
      'console error left open': 'not ok',
      'expected error that came': 'ok',
      'expected error that never came': 'not ok',
      'allowed error': 'ok',
    },
    run.stdout + run.stderr,
  );
  assert.match(run.stdout, /unexpected uncaught page error: Error: boom from the page/);
  assert.match(run.stdout, /unexpected console error: logged by the page/);
  assert.match(run.stdout, /expected an error matching \/logged by the page\/, none came/);
});
