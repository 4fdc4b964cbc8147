// The benchmark page (never part of the site): `?engine=wasm|tsparticles|none&n=100` draws the
// background scene with our wasm-core animation (in its worker, like the site) or with tsParticles
// (slim preset) configured to match. The script counts the page's animation frames itself; the
// animation's own frames are on the canvas's `data-frames` after `window.benchCountFrames()`.
import { loadWasmCore } from '../src/wasm/wasm-core';
import { startParticles } from '../src/features/particles/start-particles';

declare global {
  interface Window {
    benchReady: boolean;
    benchCountFrames?: () => void;
  }
}

const params = new URLSearchParams(location.search);
const engine = params.get('engine') ?? 'wasm';
const count = Number(params.get('n') ?? 100);

async function startTsParticles() {
  const [{ tsParticles }, { loadSlim }, core] = await Promise.all([
    import('@tsparticles/engine'),
    import('@tsparticles/slim'),
    loadWasmCore(),
  ]);
  await loadSlim(tsParticles);
  const style = core.particleStyle() as {
    color: string;
    particleRadius: number;
    particleAlpha: number;
    linkAlpha: number;
    lineWidth: number;
    linkDistance: number;
  };
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
        links: {
          enable: true,
          distance: style.linkDistance,
          color: style.color,
          opacity: style.linkAlpha,
          width: style.lineWidth,
        },
        // tsParticles' speed is px per 60 Hz frame; ours averages 24 px/s.
        move: { enable: true, speed: 0.4, outModes: { default: 'bounce' } },
      },
    },
  });
}

async function start() {
  if (engine === 'wasm') {
    const particles = startParticles(document.getElementById('ours') as HTMLCanvasElement, {
      count,
      seed: 1,
    });
    window.benchCountFrames = particles.countFrames;
  } else if (engine === 'tsparticles') {
    await startTsParticles();
  }
  window.benchReady = true;
}

start().catch((error: unknown) => {
  document.title = `error: ${String(error)}`;
  throw error;
});
