import { Island } from './islands/Island';
import { LandingPage } from './pages/LandingPage';
import { NotFoundPage } from './pages/NotFoundPage';

export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

/**
 * One landing route, with the voice button; every other path is the 404 screen (spec §2).
 * Page-wide layers are siblings of the page: the background canvas goes before it (the page sits
 * above, in a z-10 layer), the fixed toasts and voice button after it.
 */
export function App({ path }: { path: string }) {
  const landing = isLandingPath(path);
  return (
    <>
      <Island name="particles" />
      <div className="relative z-10">{landing ? <LandingPage /> : <NotFoundPage />}</div>
      <Island name="toaster" />
      {landing && <Island name="voice" />}
    </>
  );
}
