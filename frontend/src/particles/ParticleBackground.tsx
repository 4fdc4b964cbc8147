import { useEffect, useRef } from 'react';
import { loadWasmCore } from './load-core';
import type { ParticleState } from './particle-renderer';
import { whenInteractive } from './when-interactive';

/**
 * The decorative particle canvas behind every page (spec §2). It is fixed to the viewport under
 * the content, ignores the pointer and is hidden from assistive technology; the simulation is
 * wasm-core's, loaded after the page is interactive.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    const cancel = whenInteractive(() => {
      // The renderer comes with the wasm module, so neither is in the first-load JavaScript.
      Promise.all([loadWasmCore(), import('./particle-renderer')])
        .then(([core, { startParticles }]) => {
          if (!unmounted && canvasRef.current) stop = startParticles(canvasRef.current, core);
        })
        .catch((error: unknown) => console.error('Fondo de partículas no disponible', error));
    });
    return () => {
      unmounted = true;
      cancel();
      stop?.();
    };
  }, []);

  return (
    <canvas
      ref={canvasRef}
      aria-hidden="true"
      data-particles={'idle' satisfies ParticleState}
      className="pointer-events-none fixed inset-0 -z-10 h-full w-full"
    />
  );
}
