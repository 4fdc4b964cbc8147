// The first-load budget check counts what a visit fetches, and must measure something: a built
// page without any script (a broken build) fails instead of passing at 0 KB, and scripts fetched
// after the first paint, by import() and by a worker, count like the HTML's own. Needs the release
// backend (scripts/build.sh), which serves each made-up site below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = new URL('./first-load-size.mjs', import.meta.url).pathname;

function withDist(files, check) {
  const dist = mkdtempSync(join(tmpdir(), 'first-load-test-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dist, name, '..'), { recursive: true });
      writeFileSync(join(dist, name), text);
    }
    check(dist);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

test('a page that fetches no script fails, whatever the budget', () => {
  withDist(
    { 'index.html': '<html><body><p>No scripts</p></body></html>', '404.html': 'gone' },
    (dist) => {
      const run = spawnSync(process.execPath, [script, '--dist', dist, '--max-kb', '120'], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 1);
      assert.match(run.stderr, /fetched no script/);
    },
  );
});

test('scripts fetched later (import(), a worker) count, gzipped, and are held to the budget', () => {
  const big = `export const data = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `item ${i * 7919}`))};`;
  const files = {
    'index.html': '<script type="module" src="/assets/entry.js"></script>',
    '404.html': 'gone',
    'assets/entry.js':
      "setTimeout(() => import('./later.js'), 300); new Worker('/assets/worker.js', { type: 'module' });",
    'assets/later.js': big,
    'assets/worker.js': "import('./in-worker.js');",
    'assets/in-worker.js': 'export const inWorker = 1;',
  };
  withDist(files, (dist) => {
    const out = execFileSync(process.execPath, [script, '--dist', dist], { encoding: 'utf8' });
    for (const file of ['entry', 'later', 'worker', 'in-worker'])
      assert.match(out, new RegExp(`assets/${file}\\.js`));
    const sizes = [...out.matchAll(/first-load JavaScript: ([\d.]+) KB gzip/g)].map(([, kb]) =>
      Number(kb),
    );
    assert.equal(sizes.length, 2, 'a phone and a desktop visit');
    const kb = Math.max(...sizes);
    assert.ok(kb > 1, `${kb} KB`);
    const over = spawnSync(
      process.execPath,
      [script, '--dist', dist, '--max-kb', String(kb - 0.5)],
      { encoding: 'utf8' },
    );
    assert.equal(over.status, 1);
    assert.match(over.stderr, /over budget/);
  });
});

test('with --voice-max-kb, the visits with voice configured are held to their own budget', () => {
  // The page asks the server, as the voice island does, and fetches more when voice is on.
  const big = `export const data = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `voice ${i * 7919}`))};`;
  const files = {
    'index.html': '<script type="module" src="/assets/entry.js"></script>',
    '404.html': 'gone',
    'assets/entry.js':
      "fetch('/api/client-config').then((r) => r.json()).then((c) => c.voice && import('./voice.js'));",
    'assets/voice.js': big,
  };
  withDist(files, (dist) => {
    const run = (...budgets) =>
      spawnSync(process.execPath, [script, '--dist', dist, ...budgets], { encoding: 'utf8' });
    const within = run('--max-kb', '1', '--voice-max-kb', '100');
    assert.equal(within.status, 0, within.stderr);
    assert.match(within.stdout, /voice on:[^]*assets\/voice\.js/);
    const over = run('--max-kb', '1', '--voice-max-kb', '1');
    assert.equal(over.status, 1);
    assert.match(over.stderr, /over budget: [\d.]+ KB > 1 KB \(the larger size, voice on\)/);
  });
});
