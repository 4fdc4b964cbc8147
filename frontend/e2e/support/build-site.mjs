// The site built from another content folder (CONTENT_DIR), both languages, into a folder of its
// own that the real server can serve (startServer's `staticDir`): what `npm run build` makes,
// without the inbox page or the compressed copies, and without touching frontend/dist.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.mjs';

const frontend = join(repoRoot, 'frontend');

/**
 * A copy of content/ in a fresh folder, with `edit(yaml)` applied to its site.yaml; `dispose()`
 * removes it.
 */
export function contentCopy(edit) {
  // Under node_modules, like the builds: ignored by git, on the same disk.
  const dir = mkdtempSync(join(frontend, 'node_modules/.content-'));
  cpSync(join(repoRoot, 'content'), dir, { recursive: true });
  const site = join(dir, 'site.yaml');
  writeFileSync(site, edit(readFileSync(site, 'utf8')));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs one step of the build; resolves with its status and what it printed. */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: frontend, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/**
 * Builds the site from `contentDir`; resolves with `{ dist, dispose }`. Rejects with the build's
 * output when a step fails (a content error is one line naming the key). Takes a minute or two,
 * during which the caller's timers still run (the steps are child processes, not awaited
 * synchronously), so a test runner's timeout can still end it.
 */
export async function buildSite(contentDir) {
  // Under node_modules, so the server-side builds resolve React and the rest from there.
  const work = mkdtempSync(join(frontend, 'node_modules/.site-build-'));
  const dir = (name) => join(work, name);
  const env = { ...process.env, CONTENT_DIR: contentDir };
  const spanish = { ...env, SITE_LANGUAGE: 'es' };
  const vite = (args, stepEnv) => [
    ['npx', 'vite', 'build', '--logLevel', 'error', ...args],
    stepEnv,
  ];
  const steps = [
    vite(['--outDir', dir('dist'), '--emptyOutDir'], env),
    vite(['--outDir', dir('dist-es'), '--emptyOutDir'], spanish),
    vite(['--ssr', 'src/entry-server.tsx', '--outDir', dir('ssr')], env),
    vite(['--ssr', 'src/entry-server.tsx', '--outDir', dir('ssr-es')], spanish),
    [
      [
        process.execPath,
        'scripts/prerender.mjs',
        ...['--dist', dir('dist'), '--ssr', dir('ssr')],
        ...['--dist-es', dir('dist-es'), '--ssr-es', dir('ssr-es')],
      ],
      env,
    ],
  ];
  try {
    for (const [[command, ...args], stepEnv] of steps) {
      const { status, output } = await run(command, args, stepEnv);
      if (status !== 0) throw new Error(`${[command, ...args].join(' ')} failed:\n${output}`);
    }
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  return { dist: dir('dist'), dispose: () => rmSync(work, { recursive: true, force: true }) };
}
