import { drawFrame } from './draw-frame';
import { PixelRenderer } from './draw-pixels';
import { FieldView } from './field-view';
import type { WasmCore } from './load-core';

/** A frame after a stall (debugger, slow device) moves the field at most this far in time. */
const MAX_FRAME_SECONDS = 0.1;

/**
 * From this many links a frame the field is drawn into pixels by wasm-core (`draw-pixels.ts`):
 * a canvas without a GPU strokes tens of thousands of lines far slower. Below it, one stroked
 * path per opacity level is cheaper than putting a canvas of pixels. The gap keeps a field that
 * hovers around the threshold from switching back and forth.
 */
const PIXELS_FROM_LINKS = 3000;
const PATHS_BELOW_LINKS = 2000;

/** What the canvas is doing, mirrored on `data-particles` for tests and benchmarks. */
export type ParticleState = 'idle' | 'running' | 'still' | 'paused' | 'stopped';
/** How the last frame was drawn, mirrored on `data-drawn`. */
export type DrawMethod = 'paths' | 'pixels';

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
  const memory = core.wasmMemory() as WebAssembly.Memory;
  const view = new FieldView(field, memory, core.linkAlphaBuckets());
  let pixels: PixelRenderer | undefined;
  let drawn: DrawMethod | undefined;
  let dpr = 1;
  let frame = 0;
  let last: number | undefined;

  const setState = (state: ParticleState) => (canvas.dataset.particles = state);

  const fitCanvas = () => {
    width = Math.max(1, canvas.clientWidth);
    height = Math.max(1, canvas.clientHeight);
    dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    field.resize(width, height);
  };

  const render = () => {
    field.findLinks();
    view.refresh();
    const method = field.linkCount >= (drawn === 'pixels' ? PATHS_BELOW_LINKS : PIXELS_FROM_LINKS) ? 'pixels' : 'paths';
    if (method === 'pixels') (pixels ??= new PixelRenderer(core, memory)).draw(ctx, field, dpr);
    else drawFrame(ctx, view, width, height);
    if (method !== drawn) canvas.dataset.drawn = drawn = method;
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
    pixels?.free();
    field.free();
    setState('stopped');
  };
}
