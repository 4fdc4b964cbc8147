import type { ParticleField } from '../wasm-pkg/wasm_core.js';

/** x1, y1, x2, y2, alpha per link, as wasm-core writes them. */
export const SEGMENT_FLOATS = 5;

/**
 * Reads a particle field's buffers straight out of wasm memory: one Float32Array and one
 * Uint32Array over the whole memory, indexed at the pointers the field hands out. Nothing is
 * copied and nothing is allocated per frame; the arrays are remade only when the memory grows
 * (which detaches the old buffer).
 */
export class FieldView {
  f32: Float32Array;
  u32: Uint32Array;

  constructor(
    readonly field: ParticleField,
    private readonly memory: WebAssembly.Memory,
    readonly buckets: number,
  ) {
    this.f32 = new Float32Array(memory.buffer);
    this.u32 = new Uint32Array(memory.buffer);
  }

  /** Call after anything that may allocate in wasm (a step, a resize) and before reading. */
  refresh(): void {
    if (this.f32.buffer !== this.memory.buffer) {
      this.f32 = new Float32Array(this.memory.buffer);
      this.u32 = new Uint32Array(this.memory.buffer);
    }
  }

  /** Index into `f32` of particle 0's x; particle i is at `+ 2 * i`. */
  positionsAt(): number {
    return this.field.positionsPtr() / 4;
  }

  /** Index into `f32` of segment 0's x1; segment k (x1, y1, x2, y2, alpha) is at `+ 5 * k`. */
  segmentsAt(): number {
    return this.field.segmentsPtr() / 4;
  }

  /** Index into `u32` of the first opacity level's end; level b's links end at `+ b`. */
  bucketEndsAt(): number {
    return this.field.bucketEndsPtr() / 4;
  }
}
