import { Island } from './islands/Island';
import { LandingPage } from './pages/LandingPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { QuoteResultPage, type QuoteResultVariant } from './pages/QuoteResultPage';

export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

/**
 * One landing route, with the voice button; every other path is the 404 screen (docs/product.md §2). The
 * result pages of a form post without JavaScript are rendered by `quoteResult` (the server picks
 * one for its `/quote-result`).
 * Page-wide layers are siblings of the page: the background canvas goes before it (the page sits
 * above, in a z-10 layer), the fixed toasts and voice button after it.
 */
export function App({ path, quoteResult }: { path: string; quoteResult?: QuoteResultVariant }) {
  const landing = !quoteResult && isLandingPath(path);
  const page = quoteResult ? (
    <QuoteResultPage variant={quoteResult} />
  ) : landing ? (
    <LandingPage />
  ) : (
    <NotFoundPage />
  );
  return (
    <>
      <Island name="particles" />
      <div className="relative z-10">{page}</div>
      <Island name="toaster" />
      {landing && <Island name="voice" />}
    </>
  );
}
