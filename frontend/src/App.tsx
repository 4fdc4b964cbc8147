import { lazy, Suspense } from 'react';
import { AfterHydration } from './components/layout/AfterHydration';
import { MotionProvider } from './components/motion/MotionProvider';
import { LandingPage } from './pages/LandingPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ParticleBackground } from './particles/ParticleBackground';

// Notifications only follow an action, so their code loads after first paint.
const Toaster = lazy(() => import('./components/ui/toaster').then((module) => ({ default: module.Toaster })));
// The voice button needs JavaScript to do anything, and its tooltips bring Radix's positioning
// engine: it loads right after first paint rather than weighing on it. Being fixed, it shifts
// nothing. It mounts only once the page has hydrated: a button that appeared while hydration was
// still under way could lose the visitor's first click.
const VoiceAssistant = lazy(() => import('./voice/VoiceAssistant').then((module) => ({ default: module.VoiceAssistant })));

export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

/**
 * One landing route, with the voice button; every other path is the 404 screen (spec §2).
 * Page-wide layers are siblings of the page: a background layer goes before it (the page sits
 * above, in a z-10 layer), fixed overlays such as a bottom-right button go after the Toaster.
 */
export function App({ path }: { path: string }) {
  const landing = isLandingPath(path);
  return (
    <MotionProvider>
      <ParticleBackground />
      <div className="relative z-10">{landing ? <LandingPage /> : <NotFoundPage />}</div>
      <Suspense>
        <Toaster />
      </Suspense>
      {landing && (
        <AfterHydration>
          <Suspense>
            <VoiceAssistant />
          </Suspense>
        </AfterHydration>
      )}
    </MotionProvider>
  );
}
