import { Toaster } from './components/ui/toaster';
import { LandingPage } from './pages/LandingPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ParticleBackground } from './particles/ParticleBackground';
import { VoiceAssistant } from './voice/VoiceAssistant';

/** One landing route; every other path is the 404 screen (spec §2). */
export function App({ path }: { path: string }) {
  return (
    <>
      <ParticleBackground />
      {path === '/' || path === '/index.html' ? <LandingPage /> : <NotFoundPage />}
      <Toaster />
      <VoiceAssistant />
    </>
  );
}
