import { useEffect, useRef } from 'react';
import { whenInteractive } from './when-interactive';

/**
 * The decorative particle canvas behind every page (docs/product.md §2). It is fixed to the viewport under
 * the content, ignores the pointer and is hidden from assistive technology. wasm-core draws it,
 * off the main thread where the browser can (`start-particles.ts`), after the page is interactive.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    const cancel = whenInteractive(() => {
      // The host code comes later too, so none of it is in the first-load JavaScript.
      import('./start-particles')
        .then(({ startParticles }) => {
          if (!unmounted && canvasRef.current) stop = startParticles(canvasRef.current).stop;
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
      data-particles="idle"
      className="pointer-events-none fixed inset-0 -z-10 h-full w-full"
    />
  );
}
