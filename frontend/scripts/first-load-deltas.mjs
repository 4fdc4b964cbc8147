// What the voice button and the particle background add to the first-load JavaScript (docs/figures.md's
// figures). Builds the site three times into temp dirs (client, server render, prerender): as it is,
// and with each feature's module left out (replaced by a component that renders nothing; its mount
// point, a few bytes, stays in both), then measures each the way scripts/first-load-size.mjs does
// (a visit at each size with voice off, the larger kept). Sizes of a build are deterministic, so one
// build per variant is enough. Needs wasm-core and the backend built (scripts/build.sh).
// Usage: node scripts/first-load-deltas.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { launchBrowser } from '../e2e/support/browser.mjs';
import { kb, measureFirstLoad, VISIT_VIEWPORTS } from './first-load-size.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The features measured: the module that brings each in, and what it is replaced with. The voice
 * island's loader, not the assistant: with voice off the page fetches the loader (it asks the
 * server) and never the assistant.
 */
const FEATURES = [
  {
    name: 'voice button',
    module: 'src/features/voice/load-voice-island.ts',
    stub: 'export async function loadVoiceIsland() { return () => null; }',
  },
  {
    name: 'particle background',
    module: 'src/features/particles/ParticleBackground.tsx',
    stub: 'export function ParticleBackground() { return null; }',
  },
];

/** A Vite plugin that serves `module` as `stub`, a part that renders nothing. */
function leaveOut({ module, stub }) {
  const target = join(root, module);
  return {
    name: 'first-load-deltas:leave-out',
    enforce: 'pre',
    load(id) {
      if (id.split('?')[0] === target) return stub;
    },
  };
}

const browser = await launchBrowser();

async function firstLoadBytes(feature) {
  const outDir = mkdtempSync(join(tmpdir(), 'first-load-'));
  // Inside the front end (as dist-ssr is), where the server bundle finds its packages.
  const ssrDir = mkdtempSync(join(root, 'dist-ssr-'));
  try {
    const plugins = feature ? [leaveOut(feature)] : [];
    await build({ root, logLevel: 'error', plugins, build: { outDir, emptyOutDir: true } });
    await build({
      root,
      logLevel: 'error',
      plugins,
      build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true },
    });
    execFileSync(process.execPath, [
      join(root, 'scripts/prerender.mjs'),
      '--dist',
      outDir,
      '--ssr',
      ssrDir,
    ]);
    let largest = 0;
    for (const viewport of Object.values(VISIT_VIEWPORTS)) {
      largest = Math.max(
        largest,
        (await measureFirstLoad(outDir, { viewport, browser })).totalBytes,
      );
    }
    return largest;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(ssrDir, { recursive: true, force: true });
  }
}

const whole = await firstLoadBytes(null);
console.log(`first-load JavaScript, whole landing page: ${kb(whole)} KB gzip`);
for (const feature of FEATURES) {
  const without = await firstLoadBytes(feature);
  const delta = whole - without;
  if (delta < 0)
    throw new Error(`leaving out the ${feature.name} made the first load larger (${delta} bytes)`);
  console.log(
    `added by the ${feature.name}: +${kb(delta)} KB gzip (${delta} bytes; ${kb(without)} KB without it, ${kb(whole)} KB with it)`,
  );
}
await browser.close();
