import { describe, expect, it } from 'vitest';
import { loadWasmCore } from './wasm-core';

describe('the wasm-core loader', () => {
  it('loads the module once for every feature', async () => {
    const first = loadWasmCore();
    expect(loadWasmCore()).toBe(first);
    const core = await first;
    expect(typeof core.validateQuote).toBe('function');
    expect(typeof core.SpeakingDetector).toBe('function');
    expect(typeof core.ParticleAnimation).toBe('function');
    expect(typeof core.startParticleWorker).toBe('function');
  });

  it('gives the particle style from Rust, named once', async () => {
    const core = await loadWasmCore();
    expect(core.particleStyle()).toEqual({
      color: '#0d6ea8',
      particleRadius: 2,
      particleAlpha: 0.5,
      linkAlpha: expect.closeTo(0.4, 6),
      lineWidth: 1,
      linkDistance: 100,
    });
  });
});
