import { describe, expect, it } from 'vitest';
import { FieldView, SEGMENT_FLOATS } from './field-view';
import { loadWasmCore } from './load-core';

describe('FieldView over wasm-core memory', () => {
  it('reads positions, segments and opacity levels in place, without copies', async () => {
    const core = await loadWasmCore();
    const memory = core.wasmMemory() as WebAssembly.Memory;
    const field = new core.ParticleField(400, 300, core.particleCount(), 7);
    const view = new FieldView(field, memory, core.linkAlphaBuckets());
    field.step(1 / 60);
    field.findLinks();
    view.refresh();
    expect(view.f32.buffer).toBe(memory.buffer);
    expect(core.particleCount()).toBe(100);

    const ends = Array.from({ length: view.buckets }, (_, b) => view.u32[view.bucketEndsAt() + b]);
    expect(ends.at(-1)).toBe(field.linkCount);
    expect(field.linkCount).toBeGreaterThan(0);
    const distance = core.linkDistance();
    let start = 0;
    ends.forEach((end, level) => {
      for (let k = view.segmentsAt() + start * SEGMENT_FLOATS; k < view.segmentsAt() + end * SEGMENT_FLOATS; k += SEGMENT_FLOATS) {
        const [x1, y1, x2, y2, alpha] = view.f32.subarray(k, k + SEGMENT_FLOATS);
        const length = Math.hypot(x2 - x1, y2 - y1);
        expect(length).toBeLessThan(distance);
        expect(alpha).toBeCloseTo(1 - length / distance, 4);
        expect(Math.min(Math.floor(alpha * view.buckets), view.buckets - 1)).toBe(level);
      }
      start = end;
    });
    for (let i = view.positionsAt(); i < view.positionsAt() + 2 * field.count; i += 2) {
      expect(view.f32[i]).toBeGreaterThanOrEqual(0);
      expect(view.f32[i]).toBeLessThanOrEqual(400);
      expect(view.f32[i + 1]).toBeLessThanOrEqual(300);
    }
    field.free();
  });

  it('remakes its arrays when wasm memory grows', async () => {
    const core = await loadWasmCore();
    const memory = core.wasmMemory() as WebAssembly.Memory;
    const field = new core.ParticleField(100, 100, 10, 1);
    const view = new FieldView(field, memory, core.linkAlphaBuckets());
    const firstX = view.f32[view.positionsAt()];
    const big = new core.ParticleField(1000, 1000, 100_000, 2);
    expect(view.f32.buffer).not.toBe(memory.buffer);
    view.refresh();
    expect(view.f32.buffer).toBe(memory.buffer);
    expect(view.f32[view.positionsAt()]).toBe(firstX);
    big.free();
    field.free();
  });

  it('refuses a bad size with a clear error', async () => {
    const core = await loadWasmCore();
    expect(() => new core.ParticleField(0, 100, 10, 1)).toThrow(/must be finite, positive/);
  });
});
