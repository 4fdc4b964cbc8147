import { drawFrame } from './draw-frame';
import { FieldView } from './field-view';
import type { WasmCore } from './load-core';

/** A frame after a stall (debugger, slow device) moves the field at most this far in time. */
const MAX_FRAME_SECONDS = 0.1;

/** What the canvas is doing, mirrored on `data-particles` for tests and benchmarks. */
export type ParticleState = 'idle' | 'running' | 'still' | 'paused' | 'stopped';

export interface ParticleOptions {
  /** Defaults to the spec's count, read from wasm-core. */
  count?: number;
  seed?: number;
  /** Defaults to the visitor's `prefers-reduced-motion` setting. */
  reducedMotion?: MediaQueryList;
}

/**
 * Animates a particle field on `canvas` (sized to its CSS box, drawn at devicePixelRatio) until
 * the returned function is called. It pauses while the tab is hidden, and under reduced motion
 * draws a single still frame.
 */
export function startParticles(canvas: HTMLCanvasElement, core: WasmCore, options: ParticleOptions = {}): () => void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return () => {};
  const reducedMotion = options.reducedMotion ?? window.matchMedia('(prefers-reduced-motion: reduce)');
  let width = Math.max(1, canvas.clientWidth);
  let height = Math.max(1, canvas.clientHeight);
  const field = new core.ParticleField(width, height, options.count ?? core.particleCount(), options.seed ?? Date.now() >>> 0);
  const view = new FieldView(field, core.wasmMemory() as WebAssembly.Memory, core.linkAlphaBuckets());
  let frame = 0;
  let last: number | undefined;

  const setState = (state: ParticleState) => (canvas.dataset.particles = state);

  const fitCanvas = () => {
    width = Math.max(1, canvas.clientWidth);
    height = Math.max(1, canvas.clientHeight);
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    field.resize(width, height);
  };

  const render = () => {
    field.findLinks();
    view.refresh();
    drawFrame(ctx, view, width, height);
  };

  const tick = (now: number) => {
    const seconds = last === undefined ? 0 : Math.min((now - last) / 1000, MAX_FRAME_SECONDS);
    last = now;
    field.step(seconds);
    render();
    frame = requestAnimationFrame(tick);
  };

  const stopLoop = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    last = undefined;
  };

  /** Runs, pauses or draws one still frame, whichever the tab and the visitor's setting call for. */
  const update = () => {
    stopLoop();
    if (reducedMotion.matches) {
      render();
      setState('still');
    } else if (document.hidden) {
      setState('paused');
    } else {
      frame = requestAnimationFrame(tick);
      setState('running');
    }
  };

  const onResize = () => {
    fitCanvas();
    if (reducedMotion.matches) render();
  };

  fitCanvas();
  update();
  window.addEventListener('resize', onResize);
  document.addEventListener('visibilitychange', update);
  reducedMotion.addEventListener('change', update);

  return () => {
    stopLoop();
    window.removeEventListener('resize', onResize);
    document.removeEventListener('visibilitychange', update);
    reducedMotion.removeEventListener('change', update);
    field.free();
    setState('stopped');
  };
}
