// What the voice button and the particle background add to the first-load JavaScript (docs/figures.md's
// figures). Builds the client three times into temp dirs: as it is, and with each feature's module
// left out (replaced by a component that renders nothing; its mount point, a few bytes, stays in
// both), then measures each the way scripts/first-load-size.mjs does. Sizes of a build are
// deterministic, so one build per variant is enough. Needs wasm-core built (scripts/build-wasm.sh).
// Usage: node scripts/first-load-deltas.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { kb, measureFirstLoad } from './first-load-size.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The features measured: the module that brings each in, and the component it exports. */
const FEATURES = [
  { name: 'voice button', module: 'src/voice/VoiceAssistant.tsx', component: 'VoiceAssistant' },
  { name: 'particle background', module: 'src/particles/ParticleBackground.tsx', component: 'ParticleBackground' },
];

/** A Vite plugin that serves `module` as a component rendering nothing. */
function leaveOut({ module, component }) {
  const target = join(root, module);
  return {
    name: 'first-load-deltas:leave-out',
    enforce: 'pre',
    load(id) {
      if (id.split('?')[0] === target) return `export function ${component}() { return null; }`;
    },
  };
}

async function firstLoadBytes(feature) {
  const outDir = mkdtempSync(join(tmpdir(), 'first-load-'));
  try {
    await build({
      root,
      logLevel: 'error',
      plugins: feature ? [leaveOut(feature)] : [],
      build: { outDir, emptyOutDir: true },
    });
    return measureFirstLoad(outDir).totalBytes;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const whole = await firstLoadBytes(null);
console.log(`first-load JavaScript, whole landing page: ${kb(whole)} KB gzip`);
for (const feature of FEATURES) {
  const without = await firstLoadBytes(feature);
  const delta = whole - without;
  if (delta < 0) throw new Error(`leaving out the ${feature.name} made the first load larger (${delta} bytes)`);
  console.log(
    `added by the ${feature.name}: +${kb(delta)} KB gzip (${delta} bytes; ${kb(without)} KB without it, ${kb(whole)} KB with it)`,
  );
}
