import { loadWasmCore } from '../../wasm/wasm-core';

/**
 * The animation's reports, mirrored on the canvas: `data-particles`, `data-drawn`,
 * `data-particles-host`, and `data-frames` when asked (the benchmark's frame rate).
 */
type Report = Partial<Record<'particles' | 'drawn' | 'particlesHost' | 'frames', string>>;

export interface ParticleOptions {
  /** Defaults to the product's count (wasm-core). */
  count?: number;
  seed?: number;
}

/**
 * The canvas's backing store has at most this many pixels per CSS px; the browser scales it up
 * to the screen. The scene is faint 1 px lines and small dots, which look the same either way,
 * while a full-resolution canvas at a phone's 2x or 3x is 4 to 9 times the pixels to clear, draw
 * and composite every frame: on a phone's few cores that work landed on the frame after every
 * tap (docs/figures.md, the interactions at each ratio).
 */
const MAX_PARTICLE_DPR = 1;

/** The messages both hosts take (wasm-core/src/particles/animation/message.rs). */
function viewOf(canvas: HTMLCanvasElement, reducedMotion: MediaQueryList) {
  return {
    width: Math.max(1, canvas.clientWidth),
    height: Math.max(1, canvas.clientHeight),
    dpr: Math.min(window.devicePixelRatio || 1, MAX_PARTICLE_DPR),
    hidden: document.hidden,
    reducedMotion: reducedMotion.matches,
  };
}

/** The running animation, on whichever host it runs. */
export interface RunningParticles {
  stop(): void;
  /** Asks for the frames drawn so far; they appear on `data-frames`. */
  countFrames(): void;
}

/**
 * Runs wasm-core's particle animation on `canvas` until stopped: in a module worker
 * that draws on the canvas through `transferControlToOffscreen()`, or, where OffscreenCanvas is
 * missing, on the main thread. Either way wasm-core runs the frame loop; this thread only sends
 * size, devicePixelRatio, visibility and the reduced-motion setting, on change.
 */
export function startParticles(
  canvas: HTMLCanvasElement,
  options: ParticleOptions = {},
): RunningParticles {
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  const report = (data: Report) => Object.assign(canvas.dataset, data);
  const host =
    'transferControlToOffscreen' in canvas
      ? workerHost(canvas, options, reducedMotion, report)
      : mainThreadHost(canvas, options, reducedMotion, report);
  const update = () => host.post(viewOf(canvas, reducedMotion));
  window.addEventListener('resize', update);
  document.addEventListener('visibilitychange', update);
  reducedMotion.addEventListener('change', update);
  return {
    stop: () => {
      window.removeEventListener('resize', update);
      document.removeEventListener('visibilitychange', update);
      reducedMotion.removeEventListener('change', update);
      host.stop();
      report({ particles: 'stopped' });
    },
    countFrames: () => host.post({ countFrames: true }),
  };
}

interface Host {
  post(message: object): void;
  stop(): void;
}

function workerHost(
  canvas: HTMLCanvasElement,
  options: ParticleOptions,
  reducedMotion: MediaQueryList,
  report: (data: Report) => void,
): Host {
  const offscreen = canvas.transferControlToOffscreen();
  const worker = new Worker(new URL('./particle-worker.ts', import.meta.url), { type: 'module' });
  let ready = false;
  worker.onmessage = ({ data }: MessageEvent<Report | 'ready'>) => {
    if (data !== 'ready') return report(data);
    // The first message carries the canvas and the view as it is now, so nothing sent before
    // the worker listened is missed.
    ready = true;
    worker.postMessage({ canvas: offscreen, ...options, ...viewOf(canvas, reducedMotion) }, [
      offscreen,
    ]);
  };
  worker.onerror = (event) => console.error('Fondo de partículas no disponible', event.message);
  return {
    post: (message) => ready && worker.postMessage(message),
    stop: () => worker.terminate(),
  };
}

function mainThreadHost(
  canvas: HTMLCanvasElement,
  options: ParticleOptions,
  reducedMotion: MediaQueryList,
  report: (data: Report) => void,
): Host {
  let animation: { post(message: object): void; free(): void } | undefined;
  let stopped = false;
  loadWasmCore()
    .then((core) => {
      if (!stopped)
        animation = new core.ParticleAnimation(
          canvas,
          { ...options, ...viewOf(canvas, reducedMotion) },
          report,
        );
    })
    .catch((error: unknown) => console.error('Fondo de partículas no disponible', error));
  return {
    post: (message) => animation?.post(message),
    stop: () => {
      stopped = true;
      animation?.free();
    },
  };
}
