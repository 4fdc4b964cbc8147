import type { FieldRaster, ParticleField } from '../wasm-pkg/wasm_core.js';
import { PARTICLE_STYLE } from './draw-frame';
import type { WasmCore } from './load-core';

/**
 * Draws a dense field with wasm-core's rasteriser: the pixels are written in wasm memory and put
 * on the canvas in one call, through an ImageData that views that memory without copying. The
 * view is remade only when the canvas size changes or the memory grows (which detaches it).
 */
export class PixelRenderer {
  private readonly raster: FieldRaster;
  private image: ImageData | undefined;

  constructor(
    core: WasmCore,
    private readonly memory: WebAssembly.Memory,
  ) {
    const style = PARTICLE_STYLE;
    const rgb = Number.parseInt(style.color.slice(1), 16);
    this.raster = new core.FieldRaster(rgb, style.linkAlpha, style.particleRadius, style.particleAlpha);
  }

  /** Draws the field's current links and particles over the whole canvas, `scale` = devicePixelRatio. */
  draw(ctx: CanvasRenderingContext2D, field: ParticleField, scale: number): void {
    const { width, height } = ctx.canvas;
    if (this.image?.width !== width || this.image.height !== height) {
      this.raster.resize(width, height);
      this.image = undefined;
    }
    this.raster.draw(field, scale);
    if (this.image?.data.buffer !== this.memory.buffer) {
      const pixels = new Uint8ClampedArray(this.memory.buffer, this.raster.pixelsPtr(), width * height * 4);
      this.image = new ImageData(pixels, width, height);
    }
    ctx.putImageData(this.image, 0, 0);
  }

  free(): void {
    this.raster.free();
  }
}
