// What scripts/check-doc-paths.mjs reads as a path in the docs, and what it leaves alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { codePaths, linkTargets, prose } from './check-doc-paths.mjs';

const TOP = new Set(['backend', 'frontend', 'docs', 'scripts', 'Makefile', 'README.md']);

test('backticked paths are names of files and folders, other code is not', () => {
  const text =
    'See `backend/src/app.rs`, `store/queued.rs`, `routes/admin/`, `frontend/dist`, `Makefile`' +
    ' and ``two`ticks.rs`` but not `/api/quote-requests`, `application/json`, `127.0.0.0/8`,' +
    ' `https://api.vapi.ai`, `run-<n>.json`, `*.test.ts`, `cd frontend && npx vitest`, `.git`' +
    ' or `DATABASE_URL`; a span broken over `two\nlines.rs` is not a path either.';
  assert.deepEqual(codePaths(text, TOP), [
    'backend/src/app.rs',
    'store/queued.rs',
    'routes/admin/',
    'frontend/dist',
    'Makefile',
  ]);
});

test('links to files are checked, web addresses and anchors are not', () => {
  const text = '[a](docs/api.md) [b](operating.md#put-it-online) [c](https://x.test) [d](#budgets)';
  assert.deepEqual(linkTargets(text), ['docs/api.md', 'operating.md']);
});

test('fenced code blocks are commands, not names', () => {
  assert.equal(prose('a\n```sh\nls `nope.rs`\n```\nb'), 'a\nb');
});
