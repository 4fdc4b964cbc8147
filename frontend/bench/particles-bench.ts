// The benchmark page (never part of the site): `?engine=wasm|tsparticles|none&n=100` draws the
// background scene with our wasm-core renderer or with tsParticles (slim preset) configured to
// match. The script counts the animation frames itself.
import { loadWasmCore } from '../src/particles/load-core';
import { PARTICLE_STYLE } from '../src/particles/draw-frame';
import { startParticles } from '../src/particles/particle-renderer';

declare global {
  interface Window {
    benchReady: boolean;
  }
}

const params = new URLSearchParams(location.search);
const engine = params.get('engine') ?? 'wasm';
const count = Number(params.get('n') ?? 100);

async function startTsParticles() {
  const [{ tsParticles }, { loadSlim }] = await Promise.all([import('@tsparticles/engine'), import('@tsparticles/slim')]);
  const core = await loadWasmCore();
  await loadSlim(tsParticles);
  const style = PARTICLE_STYLE;
  await tsParticles.load({
    id: 'tsparticles',
    options: {
      fullScreen: { enable: true, zIndex: -10 },
      detectRetina: true,
      fpsLimit: 240,
      particles: {
        number: { value: count },
        color: { value: style.color },
        opacity: { value: style.particleAlpha },
        size: { value: style.particleRadius },
        links: { enable: true, distance: core.linkDistance(), color: style.color, opacity: style.linkAlpha, width: style.lineWidth },
        // tsParticles' speed is px per 60 Hz frame; ours averages 24 px/s.
        move: { enable: true, speed: 0.4, outModes: { default: 'bounce' } },
      },
    },
  });
}

async function start() {
  if (engine === 'wasm') {
    const core = await loadWasmCore();
    startParticles(document.getElementById('ours') as HTMLCanvasElement, core, { count, seed: 1 });
  } else if (engine === 'tsparticles') {
    await startTsParticles();
  }
  window.benchReady = true;
}

start().catch((error: unknown) => {
  document.title = `error: ${String(error)}`;
  throw error;
});
