#!/usr/bin/env node
// Every file or folder README.md and the docs (docs/, its decisions/ too) name exists (`make lint`): each link to a file
// (inside the repository, never above its root), and each backticked path. A path written from
// the repository root (`backend/src/app.rs`) must be there; a shorter one, named within a
// sentence about its folder (`store/queued.rs`), must end the path of a file or folder the
// repository holds. Build outputs (.gitignore's, such as `frontend/dist`) count as there.
// Fenced code blocks are commands, not names, and are not read.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXTENSION =
  /\.(rs|ts|tsx|js|mjs|json|md|sh|py|toml|html|css|sql|txt|conf|service|png|svg|wasm)$/;

/** The text outside fenced code blocks. */
export function prose(markdown) {
  let fenced = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return false;
      }
      return !fenced;
    })
    .join('\n');
}

/** The file links' targets (no web addresses, no anchors within the page). */
export function linkTargets(text) {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target.split('#')[0])
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/**
 * The backticked names that are paths: with a file extension, ending in `/`, or starting with
 * one of `topLevel` (the repository root's entries). Code with spaces, globs, placeholders,
 * web paths (`/api/...`), URLs and MIME types (`application/json`) is not a path.
 */
export function codePaths(text, topLevel) {
  return [...text.matchAll(/(`+)([\s\S]+?)\1/g)]
    .map(([, , code]) => code.trim())
    .filter((code) => /^[A-Za-z0-9_.][A-Za-z0-9_.\-/]*$/.test(code))
    .filter(
      (code) =>
        EXTENSION.test(code) ||
        (code.includes('/') && code.endsWith('/')) ||
        topLevel.has(code.split('/')[0]),
    );
}

/** The paths among `paths` that .gitignore ignores (check-ignore exits 1 when there are none). */
function ignoredAmong(paths) {
  const run = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], {
    cwd: ROOT,
    input: paths.join('\n'),
    encoding: 'utf8',
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`git check-ignore: ${run.stderr}`);
  return new Set(run.stdout.split('\n').filter(Boolean));
}

function main() {
  const topLevel = new Set(readdirSync(ROOT).filter((name) => name !== '.git'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const folders = new Set(
    files.flatMap((file) => {
      const parts = file.split('/');
      return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/') + '/');
    }),
  );
  const known = [...files, ...folders];
  const ends = (name) => known.some((path) => path === name || path.endsWith('/' + name));
  const outputs = (name) =>
    [name, ...['frontend', 'backend', 'wasm-core'].map((part) => `${part}/${name}`)];
  const docs = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((doc) => `docs/${doc}`),
  ];
  const named = docs.filter((doc) => doc.endsWith('.md'));
  const problems = [];
  const unresolved = [];
  for (const doc of named) {
    const text = prose(readFileSync(join(ROOT, doc), 'utf8'));
    for (const target of linkTargets(text)) {
      const path = normalize(join(dirname(doc), decodeURIComponent(target)));
      if (path.startsWith('..' + sep) || path === '..')
        problems.push(`${doc}: links outside the repository: ${target}`);
      else if (!existsSync(join(ROOT, path))) problems.push(`${doc}: links to no file: ${target}`);
    }
    for (const name of codePaths(text, topLevel)) {
      if (name.split('/').includes('..')) {
        problems.push(`${doc}: names \`${name}\`, outside the repository`);
        continue;
      }
      const rooted = topLevel.has(name.split('/')[0]);
      const there = rooted ? existsSync(join(ROOT, name)) : ends(name);
      if (!there) unresolved.push({ doc, name });
    }
  }
  // What a build makes is not in the repository but is named by the docs all the same.
  const ignored = ignoredAmong(unresolved.flatMap(({ name }) => outputs(name)));
  for (const { doc, name } of unresolved) {
    if (!outputs(name).some((path) => ignored.has(path)))
      problems.push(`${doc}: names \`${name}\`, which is not in the repository`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} paths in the docs do not exist (${relative(ROOT, fileURLToPath(import.meta.url))})`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
