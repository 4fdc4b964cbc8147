#!/usr/bin/env node
// Imports point down (`make lint`): each of backend/src's top-level modules may use only the
// modules in the layers below its own, so no two of them can import each other. A new module
// goes into LAYERS, where its imports say it belongs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'backend', 'src');

/** From the bottom up; `main.rs` and `lib.rs` stand above them all. */
const LAYERS = [
  ['store'],
  ['settings', 'spam'],
  ['leads'],
  ['http', 'forward'],
  ['routes'],
  ['app'],
  ['commands'],
];
const layer = new Map(LAYERS.flatMap((names, i) => names.map((name) => [name, i])));

function rustFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return rustFiles(path);
    return entry.name.endsWith('.rs') ? [path] : [];
  });
}

const problems = [];
for (const file of rustFiles(SRC)) {
  const path = relative(SRC, file);
  const module = path.split('/')[0].replace(/\.rs$/, '');
  if (module === 'main' || module === 'lib') continue;
  const own = layer.get(module);
  if (own === undefined) {
    problems.push(
      `backend/src/${path}: module \`${module}\` is in no layer of ${relative(process.cwd(), fileURLToPath(import.meta.url))}`,
    );
    continue;
  }
  const code = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
  // `crate::name` and each name of `crate::{a, b::c}`, which a plain match would not see.
  const usedModules = [
    ...[...code.matchAll(/\bcrate::([a-z_][a-z0-9_]*)/g)].map((m) => m[1]),
    ...[...code.matchAll(/\bcrate::\{([^}]*)\}/g)].flatMap((m) =>
      [...m[1].matchAll(/(?:^|,)\s*([a-z_][a-z0-9_]*)/g)].map((n) => n[1]),
    ),
  ];
  for (const used of usedModules) {
    if (used === module) continue;
    const theirs = layer.get(used);
    if (theirs === undefined || theirs >= own)
      problems.push(
        `backend/src/${path}: \`${module}\` imports \`${used}\`, which is not below it`,
      );
  }
}
if (problems.length > 0) {
  console.error([...new Set(problems)].join('\n'));
  process.exit(1);
}
