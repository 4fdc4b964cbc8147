// The first-load budget check must measure something: a built page without any module script
// (a broken build, or a pattern that stops matching) fails instead of passing at 0 KB.
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

test('a page with no module script fails, whatever the budget', () => {
  withDist({ 'index.html': '<html><body><script src="/classic.js"></script></body></html>' }, (dist) => {
    const run = spawnSync(process.execPath, [script, '--dist', dist, '--max-kb', '120'], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /references no module script/);
  });
});

test('module scripts and modulepreloads are measured gzipped and held to the budget', () => {
  const big = `export const data = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `item ${i * 7919}`))};`;
  const html = '<script type="module" src="/assets/a.js"></script><link rel="modulepreload" href="/assets/b.js">';
  withDist({ 'index.html': html, 'assets/a.js': big, 'assets/b.js': 'export const b = 1;' }, (dist) => {
    const out = execFileSync(process.execPath, [script, '--dist', dist], { encoding: 'utf8' });
    assert.match(out, /assets\/a\.js/);
    assert.match(out, /assets\/b\.js/);
    const kb = Number(out.match(/first-load JavaScript: ([\d.]+) KB gzip/)[1]);
    assert.ok(kb > 1, `${kb} KB`);
    const over = spawnSync(process.execPath, [script, '--dist', dist, '--max-kb', String(kb - 0.5)], { encoding: 'utf8' });
    assert.equal(over.status, 1);
    assert.match(over.stderr, /over budget/);
  });
});
